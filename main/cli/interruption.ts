// Ctrl+C (SIGINT), or SIGTERM from the system, ends whatever the command is doing, at a question or
// not: it stops its servers, says so in a line and exits as shells expect of a program a signal ended
// (128 + the signal's number: 130 for Ctrl+C).

/** What the command's abort signal carries as its reason when a signal ended it. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

const EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

function stopSignalOf(signal: AbortSignal): StopSignal {
  return signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
}

/** Says on stderr that the command was interrupted; returns its exit code. */
export function interruptedExit(signal: AbortSignal, err: (text: string) => void): number {
  const by = stopSignalOf(signal);
  err(by === 'SIGINT' ? 'atrium: interrupted' : 'atrium: stopped (SIGTERM)');
  return EXIT_CODES[by];
}

/** Rejects once `signal` aborts (at once when it has); never settles without one. */
export function whenInterrupted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (!signal) return;
    const stop = () => reject(new Error('interrupted'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}
