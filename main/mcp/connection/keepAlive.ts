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

const DEFAULT_KEEP_ALIVE_MS = 30_000;
const MISSES_BEFORE_RESTART = 2;

/**
 * Pings a connected session; one that stops answering is closed as hung (its connection restarts it),
 * unless it is no longer its connection's `current` one. Returns the function that stops the pings.
 */
export function keepSessionAlive(
  session: { client: { ping(options: { timeout: number }): Promise<unknown> }; closedReason?: string | undefined; close(): Promise<void> },
  options: { intervalMs: number | undefined; log: { add(level: 'warning', source: 'host', text: string): void }; current(): boolean },
): () => void {
  return startKeepAlive({
    intervalMs: options.intervalMs ?? DEFAULT_KEEP_ALIVE_MS,
    missesAllowed: MISSES_BEFORE_RESTART,
    ping: (timeout) => session.client.ping({ timeout }),
    onMiss: (misses, error) => options.log.add('warning', 'host', `keep-alive ping failed (${misses}/${MISSES_BEFORE_RESTART}): ${(error as Error).message}`),
    onHung: () => {
      if (!options.current()) return;
      session.closedReason = 'the server stopped answering keep-alive pings';
      void session.close();
    },
  });
}
