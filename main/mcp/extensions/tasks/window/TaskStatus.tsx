import { useEffect, useState } from 'react';
import type { TaskView } from '../contract/tasksContract.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import { useNow } from '../../../../../renderer/ui/useNow.ts';
import { taskStatusText } from './taskText.ts';
import { durationText } from '../../../../../shared/durationText.ts';

/**
 * A call that runs as a task, in its card: where it stands (status, the server's message, how long it has
 * run), Cancel (tasks/cancel), whether the model answers as soon as it finishes, and what happens to it
 * if Atrium quits.
 */
export function TaskStatus({ task, inCard = false }: { task: TaskView; inCard?: boolean }) {
  const api = useAtriumApi();
  const running = task.endedAt === undefined;
  const now = useNow(running ? 1_000 : 60_000);
  const [problem, setProblem] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  // The box shows the person's click at once, until the host's task says the same (or the change failed).
  const [wanted, setWanted] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (wanted !== undefined && task.followUp === wanted) setWanted(undefined);
  }, [task.followUp, wanted]);
  const took = (task.endedAt ?? now) - task.startedAt;
  return (
    <div className={`task-status task-status-${task.status}`}>
      {/* In its call's card, the card's head says the status (and an ended call's duration). */}
      {inCard && !running ? null : (
        <p className="task-status-line">
          {inCard ? null : (
            <>
              <strong role="status">{taskStatusText(task)}</strong>
              {' · '}
            </>
          )}
          <span aria-label="How long it has run">{durationText(took)}</span>
          {task.statusMessage && running ? (
            <>
              {' · '}
              <UntrustedText className="task-message" text={task.statusMessage} />
            </>
          ) : null}
        </p>
      )}
      {task.waiting && running ? <p className="muted">{task.waiting}.</p> : null}
      {/* A failed call's card says why in its result: said once. */}
      {task.reason && !running && !(inCard && task.status === 'failed') ? (
        <p className={task.status === 'cancelled' ? 'muted' : 'task-problem'}>
          <UntrustedText text={task.reason} />
        </p>
      ) : null}
      {!task.outlivesAtrium && running ? <p className="muted task-note">On a local server: if Atrium quits, this task ends with the server.</p> : null}
      {running ? (
        <div className="task-actions">
          <label className="task-follow-up">
            <input
              type="checkbox"
              checked={wanted ?? task.followUp}
              onChange={(event) => {
                setProblem(null);
                const followUp = event.target.checked;
                setWanted(followUp);
                api.setTaskFollowUp({ key: task.key, followUp }).catch((error: unknown) => {
                  setWanted(undefined);
                  setProblem(errorMessage(error));
                });
              }}
            />{' '}
            Let the model answer as soon as it finishes
          </label>
          {task.waiting === undefined ? (
            <button
              type="button"
              className="button button-small"
              disabled={cancelling}
              onClick={() => {
                setProblem(null);
                setCancelling(true);
                api.cancelTask({ key: task.key }).catch((error: unknown) => {
                  setCancelling(false);
                  setProblem(errorMessage(error));
                });
              }}
            >
              {cancelling ? 'Cancelling…' : 'Cancel task'}
            </button>
          ) : null}
        </div>
      ) : null}
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}
