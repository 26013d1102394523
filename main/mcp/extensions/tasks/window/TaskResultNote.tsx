import type { MessageOrigin } from '../../../../../shared/conversation.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';

const ended: Record<Extract<MessageOrigin, { kind: 'task' }>['ended'], string> = {
  completed: 'finished',
  failed: 'failed',
  cancelled: 'was cancelled',
  lost: 'was lost',
};

/**
 * The head of a message that is a task's end coming in after its turn: which call's task, how it ended
 * (and why, when it failed), and whether the model has read it yet. The sentence the model gets first
 * names the call and the task by their ids, for the model: the person is shown this instead.
 */
export function TaskResultNote({ origin, answered }: { origin: Extract<MessageOrigin, { kind: 'task' }>; answered: boolean }) {
  return (
    <>
      <p className="task-result-note">
        <strong>
          The task of <UntrustedText text={origin.serverId} /> / <UntrustedText text={origin.tool} /> {ended[origin.ended]}
        </strong>{' '}
        <span className="muted">— {answered ? 'the model has read this.' : 'the model reads this with its next request.'}</span>
      </p>
      {origin.reason !== undefined ? (
        <p className="task-problem">
          <UntrustedText text={origin.reason} />
        </p>
      ) : null}
    </>
  );
}
