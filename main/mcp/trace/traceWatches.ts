// Who watches which server's trace. A watch is a lease: the window (or the CLI) renews it while it shows
// the trace, so a window that went away without saying so stops the announcements within a lease, and a
// server nobody watches announces nothing.

import { randomUUID } from 'node:crypto';

export const TRACE_LEASE_MS = 60_000;

interface Lease {
  serverId: string;
  expiresAt: number;
}

export class TraceWatches {
  readonly #leases = new Map<string, Lease>();
  readonly #onChange: (serverId: string, watched: boolean) => void;
  readonly #leaseMs: number;
  readonly #now: () => number;
  #sweeper: NodeJS.Timeout | undefined;

  /** `onChange` hears when a server's trace starts or stops being watched by anyone. */
  constructor(onChange: (serverId: string, watched: boolean) => void, options: { leaseMs?: number; now?: () => number } = {}) {
    this.#onChange = onChange;
    this.#leaseMs = options.leaseMs ?? TRACE_LEASE_MS;
    this.#now = options.now ?? Date.now;
  }

  /** How soon a watch should be renewed: well within its lease, so one late renewal does not end it. */
  get renewWithinMs(): number {
    return Math.floor(this.#leaseMs / 3);
  }

  watch(serverId: string): string {
    const first = !this.isWatched(serverId);
    const watchId = randomUUID();
    this.#leases.set(watchId, { serverId, expiresAt: this.#now() + this.#leaseMs });
    this.#sweeper ??= setInterval(() => this.#sweep(), this.renewWithinMs).unref();
    if (first) this.#onChange(serverId, true);
    return watchId;
  }

  /** False when the watch had ended already. */
  renew(watchId: string): boolean {
    this.#sweep();
    const lease = this.#leases.get(watchId);
    if (!lease) return false;
    lease.expiresAt = this.#now() + this.#leaseMs;
    return true;
  }

  unwatch(watchId: string): void {
    const lease = this.#leases.get(watchId);
    if (!lease) return;
    this.#end(watchId, lease);
  }

  isWatched(serverId: string): boolean {
    for (const lease of this.#leases.values()) if (lease.serverId === serverId) return true;
    return false;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [watchId, lease] of [...this.#leases]) if (lease.expiresAt <= now) this.#end(watchId, lease);
  }

  #end(watchId: string, lease: Lease): void {
    this.#leases.delete(watchId);
    if (!this.isWatched(lease.serverId)) this.#onChange(lease.serverId, false);
    if (this.#leases.size === 0) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  }
}
