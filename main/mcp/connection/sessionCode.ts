// The session's code (session.ts, and the SDK under it: some 40 ms of a first start, all of it on the one
// thread) is loaded once, when a server first needs it, and after the local servers' processes being
// started at that moment have started. A process started first starts up while the code loads; started
// after, it would wait for the load, and the servers of a start would come up one after another. What
// puts a failure in words (connectionErrors.ts) comes with the SDK too, and is loaded only for a failure.
import type * as ConnectionErrors from './connectionErrors.ts';
import type { ServerError } from './serverError.ts';
import type * as SessionCode from './session.ts';

/** A start slower than this (a sandbox being made, a slow disk) does not hold the load back any longer. */
const LONGEST_WAIT_FOR_STARTS_MS = 100;

let startsUnderWay = 0;
let whenNoneUnderWay: (() => void)[] = [];
let loading: Promise<typeof SessionCode> | undefined;
let loaded: typeof SessionCode | undefined;

/** Runs the steps up to a local server's spawn as a start under way, which the session's code waits for. */
export async function processStart<T>(start: () => Promise<T>): Promise<T> {
  startsUnderWay++;
  try {
    return await start();
  } finally {
    startsUnderWay--;
    if (startsUnderWay === 0) {
      const waiting = whenNoneUnderWay;
      whenNoneUnderWay = [];
      for (const resume of waiting) resume();
    }
  }
}

export function loadSessionCode(): Promise<typeof SessionCode> {
  if (loading === undefined) {
    loading = startsEnded().then(async () => (loaded = await import('./session.ts')));
    // A load that failed is tried again by the next start, not remembered as failed for the host's life.
    loading.catch(() => (loading = undefined));
  }
  return loading;
}

/** The session's code when it is loaded already: an error of the SDK's can only come from it once it is. */
export function sessionCodeLoaded(): typeof SessionCode | undefined {
  return loaded;
}

/**
 * A failure in the person's words. What recognises the SDK's errors (connectionErrors.ts) comes with the
 * SDK, so it is loaded here, when a start fails, not with the connection.
 */
export async function failureOf(serverId: string, error: unknown, context: Parameters<typeof ConnectionErrors.toServerError>[2] = {}): Promise<ServerError> {
  const { toServerError } = await import('./connectionErrors.ts');
  return toServerError(serverId, error, context);
}

function startsEnded(): Promise<void> {
  if (startsUnderWay === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, LONGEST_WAIT_FOR_STARTS_MS);
    whenNoneUnderWay.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
