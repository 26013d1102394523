import type { ConversationNote } from '../../../shared/conversation.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

/**
 * A line Atrium added to the conversation where it happened: a tool the model was not given because its
 * server changed it since the person approved it, with the way to review that change.
 */
export function ConversationNoteLine({ note }: { note: ConversationNote }) {
  const showServerTab = useAtriumStore((state) => state.showServerTab);
  return (
    <p className="conversation-note">
      <span>
        <span aria-hidden="true">⚠ </span>
        The model was not given <strong><UntrustedText text={`${note.serverId}/${note.tool}`} /></strong>: the server changed this tool since you approved it.
      </span>
      <button type="button" className="button button-small" onClick={() => showServerTab(note.serverId, 'tools')}>
        Review the change
      </button>
    </p>
  );
}

/** Where each note goes among the messages: right after the last message at or before its `afterSeq`. */
export function withNotes<M extends { seq: number }, R>(messages: readonly M[], notes: readonly ConversationNote[], asRow: { message(message: M): R; note(note: ConversationNote): R }): R[] {
  const rows: R[] = [];
  let next = 0;
  for (const message of messages) {
    while (next < notes.length && (notes[next]?.afterSeq ?? 0) < message.seq) rows.push(asRow.note(notes[next++] as ConversationNote));
    rows.push(asRow.message(message));
  }
  while (next < notes.length) rows.push(asRow.note(notes[next++] as ConversationNote));
  return rows;
}
