// Callers waiting for a connection's status to reach a point (settled: no longer starting), checked at
// every change of status.

import type { ServerStatus } from '../../../shared/domain.ts';

export class StatusWaiters {
  private readonly waiters = new Set<() => void>();

  /** Resolves with the status as soon as `reached` gives one: now, or at a later change. */
  until(reached: () => ServerStatus | undefined): Promise<ServerStatus> {
    const now = reached();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiter = () => {
        const status = reached();
        if (!status) return;
        this.waiters.delete(waiter);
        resolve(status);
      };
      this.waiters.add(waiter);
    });
  }

  /** The status changed: every waiter looks again. */
  changed(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
