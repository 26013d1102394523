import { useEffect, useRef, useState } from 'react';
import type { StoredMessage } from '../../../shared/conversation.ts';
import { typedText } from './messageText.ts';

/**
 * Says to a screen reader that the model has replied: a reply streams in silently (its row is busy until it
 * ends), and a person who cannot see it must otherwise go and look whether it is done. The cue alone, not
 * the reply's words: those are in the list, rendered, one step away, and a second copy of them in the page
 * would be found by anything that looks for them there. Only a reply that comes in while its conversation
 * is shown is said; opening a conversation says nothing. A failed reply is said by its row's alert already.
 */
export function ReplyAnnouncer({ conversationId, messages }: { conversationId: string | null; messages: readonly StoredMessage[] | undefined }) {
  const [said, setSaid] = useState('');
  // The last reply of the conversation as first seen: what came before it is not news.
  const known = useRef<{ conversationId: string | null; replyId: string | undefined; loaded: boolean } | null>(null);
  const count = useRef(0);
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
    // A step that only called tools has no words: its calls' cards say how they went.
    if (last.status === 'error' || typedText(last).trim() === '') return;
    // Each reply is said, also one worded like the last cue: a live region speaks when its text changes, so
    // every other cue ends in a no-break space, which is not heard.
    count.current += 1;
    // Worded apart from what the list shows (UNFINISHED_REPLY), so that looking for those words finds the reply, not this.
    const cue = last.status === 'incomplete' ? "The model's reply was cut short." : 'The model replied.';
    setSaid(count.current % 2 === 0 ? `${cue}\u00a0` : cue);
  }, [conversationId, messages, last]);

  return (
    <div className="visually-hidden" role="status">
      {said}
    </div>
  );
}
