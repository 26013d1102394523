// A sliding-window limit per key (a server id): a server must not flood the person with dialogs or run
// up the person's LLM bill with requests of its own.

export class RateLimiter {
  private readonly recent = new Map<string, number[]>();
  readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
  }

  /** Counts one request for `key`; false (and not counted) when the key is over its limit. */
  take(key: string): boolean {
    const now = this.now();
    const times = (this.recent.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (times.length >= this.limit) {
      this.recent.set(key, times);
      return false;
    }
    times.push(now);
    this.recent.set(key, times);
    return true;
  }
}
