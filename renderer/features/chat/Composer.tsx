import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';

/** Where the person writes. Enter sends, Shift+Enter starts a new line; while a turn runs, Stop ends it. */
export function Composer({ conversationId, busy }: { conversationId: string | null; busy: boolean }) {
  const api = useAtriumApi();
  const setAwaitingNew = useAtriumStore((state) => state.setAwaitingNewConversation);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = busy || sending;

  const send = async () => {
    const message = text.trim();
    if (!message || running) return;
    setError(null);
    setSending(true);
    setText('');
    if (!conversationId) setAwaitingNew(true);
    try {
      await api.sendMessage({ text: message, ...(conversationId ? { conversationId } : {}) });
    } catch (failure) {
      setError(errorMessage(failure));
      // Nothing was lost: the words go back where they were typed.
      setText((current) => (current === '' ? message : current));
    } finally {
      setSending(false);
      if (!conversationId) setAwaitingNew(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {error ? (
        <p className="composer-error" role="alert">
          {error}
        </p>
      ) : null}
      <textarea
        className="composer-input"
        aria-label="Message"
        placeholder="Message Atrium (Enter to send, Shift+Enter for a new line)"
        value={text}
        rows={3}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        {running && conversationId ? (
          <button type="button" className="button" onClick={() => void api.cancelTurn({ conversationId })}>
            Stop
          </button>
        ) : null}
        <button type="submit" className="button button-primary" disabled={running || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
