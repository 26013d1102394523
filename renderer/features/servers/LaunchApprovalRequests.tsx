import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { launchReviewsWaiting } from '../../store/selectionSlice.ts';
import { StartServerDialog } from '../../serverSetup/StartServerDialog.tsx';

/**
 * Over any view: a server that waits for the person's approval of what it runs (imported, pasted, edited
 * by hand or by another program since it was approved) shows its start dialog, one at a time. One the
 * person keeps off waits on its card ("Review and start…") for the rest of this window's life.
 */
export function LaunchApprovalRequests() {
  const waiting = useAtriumStore((state) => launchReviewsWaiting(state)[0]);
  const putOff = useAtriumStore((state) => state.putOffLaunchReview);
  if (!waiting) return null;
  return <StartServerDialog key={waiting.id} server={waiting} onDone={(started) => (started ? undefined : putOff(waiting.id))} />;
}
