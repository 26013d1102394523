// When a server crashes or fails to start, it is restarted after a capped exponential backoff; after
// too many consecutive failures it stays in error until the person restarts it. A connection that stayed
// up long enough counts as healthy again, so one crash a day never exhausts the budget.

export interface RestartPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  maxConsecutiveFailures: number;
  healthyAfterMs: number;
}

export const defaultRestartPolicy: RestartPolicy = {
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxConsecutiveFailures: 5,
  healthyAfterMs: 60_000,
};

/** A one-shot run (the CLI, the conformance client) reports a server's failure instead of waiting through restarts. */
export const NO_RESTARTS: RestartPolicy = { baseDelayMs: 0, maxDelayMs: 0, maxConsecutiveFailures: 1, healthyAfterMs: Number.POSITIVE_INFINITY };

/** The delay before restart attempt `failures` (1-based), or null when it is time to give up. */
export function nextRestartDelay(policy: RestartPolicy, failures: number): number | null {
  if (failures >= policy.maxConsecutiveFailures) return null;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
}
