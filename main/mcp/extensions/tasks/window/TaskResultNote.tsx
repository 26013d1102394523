import type { MessageOrigin } from '../../../../../shared/conversation.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';

const ended: Record<Extract<MessageOrigin, { kind: 'task' }>['ended'], string> = {
  completed: 'finished',
  failed: 'failed',
  cancelled: 'was cancelled',
  lost: 'was lost',
};

/** The head of a message that is a task's end coming in after its turn: which call's task, and how it ended. */
export function TaskResultNote({ origin }: { origin: Extract<MessageOrigin, { kind: 'task' }> }) {
  return (
    <p className="task-result-note">
      <strong>
        The task of <UntrustedText text={origin.serverId} /> / <UntrustedText text={origin.tool} /> {ended[origin.ended]}
      </strong>{' '}
      <span className="muted">— the model reads this with its next request.</span>
    </p>
  );
}
