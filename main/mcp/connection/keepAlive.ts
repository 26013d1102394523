// Keep-alive: a ping every interval; a server that misses enough pings in a row is treated as hung.

export interface KeepAliveOptions {
  intervalMs: number;
  missesAllowed: number;
  ping(timeoutMs: number): Promise<unknown>;
  onMiss(misses: number, error: unknown): void;
  onHung(): void;
}

/** Starts pinging; returns the function that stops it. An interval of 0 pings never. */
export function startKeepAlive(options: KeepAliveOptions): () => void {
  if (options.intervalMs <= 0) return () => undefined;
  let misses = 0;
  let inFlight = false;
  let stopped = false;
  const timer = setInterval(() => {
    // A ping still waiting for its answer is not doubled up by the next tick.
    if (inFlight) return;
    inFlight = true;
    options.ping(Math.min(options.intervalMs, 10_000)).then(
      () => {
        inFlight = false;
        misses = 0;
      },
      (error: unknown) => {
        inFlight = false;
        if (stopped) return;
        misses++;
        options.onMiss(misses, error);
        if (misses >= options.missesAllowed) {
          stop();
          options.onHung();
        }
      },
    );
  }, options.intervalMs);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}
