import { statusLabel } from '../../shared/domain.ts';
import type { ServerStatus } from '../../shared/domain.ts';

/** A server's state as a coloured pill; a polite live region, so changes are announced. */
export function StatusBadge({ status }: { status: ServerStatus }) {
  return (
    <span className={`badge badge-${status.kind}`} role="status">
      <span className="badge-dot" aria-hidden="true" />
      {statusLabel(status)}
    </span>
  );
}
