import { useEffect, useRef, useState } from 'react';
import type { StoredMessage } from '../../../shared/conversation.ts';
import { UNFINISHED_REPLY } from '../../../shared/conversation.ts';
import { shownText } from '../../../shared/visibleText.ts';
import { typedText } from './messageText.ts';
import { spokenText } from './spokenText.ts';

/** How much of a reply is read out: enough to know what it says; the list holds the rest. */
const READ_OUT_CHARACTERS = 300;

/**
 * Says to a screen reader that the model has replied, and the start of what it said: a reply streams in
 * silently (its row is busy until it ends), and a person who cannot see it must otherwise go looking.
 * Only a reply that comes in while its conversation is shown is said; opening a conversation says nothing.
 * A failed reply is said by its row's alert already.
 */
export function ReplyAnnouncer({ conversationId, messages }: { conversationId: string | null; messages: readonly StoredMessage[] | undefined }) {
  const [said, setSaid] = useState('');
  // The last reply of the conversation as first seen: what came before it is not news.
  const known = useRef<{ conversationId: string | null; replyId: string | undefined; loaded: boolean } | null>(null);
  const last = messages?.findLast((message) => message.role === 'assistant' && message.status !== 'streaming');

  useEffect(() => {
    // Another conversation (or none): what was said of the last one goes, and its replies so far are known.
    if (known.current?.conversationId !== conversationId) {
      known.current = { conversationId, replyId: undefined, loaded: false };
      setSaid('');
    }
    if (messages === undefined) return;
    if (!known.current.loaded) {
      known.current = { conversationId, replyId: last?.id, loaded: true };
      return;
    }
    if (!last || last.id === known.current.replyId) return;
    known.current.replyId = last.id;
    const text = spokenText(shownText(typedText(last, '\n')));
    // A step that only called tools has no words: its calls' cards say how they went.
    if (last.status === 'error' || text === '') return;
    const start = text.length > READ_OUT_CHARACTERS ? `${text.slice(0, READ_OUT_CHARACTERS)}…` : text;
    setSaid(last.status === 'incomplete' ? `${UNFINISHED_REPLY}: ${start}` : `The model replied: ${start}`);
  }, [conversationId, messages, last]);

  return (
    <div className="visually-hidden" role="status">
      {said}
    </div>
  );
}
