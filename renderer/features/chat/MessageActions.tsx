// What the person can do with a message in the conversation: Edit their own words, Copy a reply, Retry the last one.

import type { StoredMessage } from '../../../shared/conversation.ts';
import { shownText } from '../../../shared/visibleText.ts';
import type { ModelInUse } from '../../../shared/modelInUse.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { typedText } from './messageText.ts';

/**
 * Edit puts a sent message back in the composer (the last one to be sent in its place); Retry sends the
 * person's last words again as a new turn.
 * Rows mount and unmount by the dozen while a long conversation scrolls, so only the last reply's Retry
 * subscribes to the store; Edit reads the store when it is pressed.
 */
export function MessageActions({ message, last, lastOfYours = false, model }: { message: StoredMessage; last: boolean; lastOfYours?: boolean; model: ModelInUse | null }) {
  if (message.role === 'user') {
    const text = typedText(message);
    if (message.origin || !text) return null;
    // The person's last message, words only, is edited in place: the edit replaces it and what answered it.
    // An earlier one (or one with files) is copied to the box, to be sent again as a new message.
    const inPlace = lastOfYours && message.content.every((block) => block.type === 'text');
    const edit = () => (inPlace ? useAtriumStore.getState().startEditing(message.conversationId, message.id, text) : useAtriumStore.getState().setDraft(text));
    return (
      <div className="message-actions">
        <button type="button" className="icon-button" aria-label={inPlace ? 'Edit your last message' : 'Edit and send again'} onClick={edit}>
          Edit
        </button>
      </div>
    );
  }
  const text = typedText(message, '\n\n');
  if (!text && !last) return null;
  return (
    <div className="message-actions">
      {/* The reply's Markdown as the window shows it: a character that could hide or reorder text goes to the clipboard as its mark. */}
      {text ? <CopyButton label="Copy the reply" text={() => shownText(text)} /> : null}
      {last ? <RetryAction messageId={message.id} model={model} /> : null}
    </div>
  );
}

/**
 * The room Retry takes, kept in the reply being written: the reply it becomes, the conversation's last,
 * offers Retry, so it would grow the moment it ended and the chat, following it, would move the reply's
 * text (and a link the person is reaching for) up under the pointer.
 */
export function RetryRoom() {
  return (
    <div className="message-actions retry-room" aria-hidden="true">
      <button type="button" className="icon-button" tabIndex={-1} disabled>
        Retry
      </button>
    </div>
  );
}

function RetryAction({ messageId, model }: { messageId: string; model: ModelInUse | null }) {
  const api = useAtriumApi();
  const conversationId = useAtriumStore((state) => state.selectedConversationId);
  const busy = useAtriumStore((state) => (conversationId ? state.live[conversationId] !== undefined || state.sending[conversationId] !== undefined : false));
  // Retry is offered while this reply is the conversation's very last message, and its turn has ended: a
  // reply still being made (the host says its turn runs, to a window reloaded midway too) is stopped first,
  // never replaced under it.
  const last = useAtriumStore((state) => state.detail?.messages.at(-1)?.id === messageId);
  const running = useAtriumStore((state) => state.conversations.some((c) => c.id === conversationId && c.running));
  const setSendError = useAtriumStore((state) => state.setSendError);
  const startSending = useAtriumStore((state) => state.startSending);
  const doneSending = useAtriumStore((state) => state.doneSending);
  // The host answers the person's last message again (it is not sent twice); a Retry that cannot start
  // says why under the message box, where a failed send says it.
  const retry = (id: string) => {
    setSendError(id, null);
    const sendNumber = startSending(id);
    api
      .retryTurn({ conversationId: id, ...(model ?? {}) })
      .catch((failure: unknown) => setSendError(id, errorMessage(failure)))
      .finally(() => doneSending(sendNumber));
  };
  if (!conversationId || !last || running) return null;
  return (
    <button type="button" className="icon-button" aria-label="Retry" disabled={busy} onClick={() => retry(conversationId)}>
      Retry
    </button>
  );
}
