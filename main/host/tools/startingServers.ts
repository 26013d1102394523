// A turn offers the model the tools its servers have at that moment. A server still starting (the window
// just opened, an npx package still being fetched) would be missing, and the model would answer that it
// has no access to what the person asked about. So a turn waits for the servers starting, a bounded
// while, and says in the chat whom it waits for (and, past the bound, whose tools it goes without).
// Servers that are not starting (failed, waiting to retry, waiting for the person's approval) are not
// waited for: they are not about to be ready.

import type { ServerSnapshot, ServerStatus } from '../../../shared/domain.ts';
import { listInWords } from '../../../shared/listInWords.ts';

/**
 * Longer than most servers take to start on a busy machine, an npx server's first fetch aside; half the
 * time a start is given before it counts as failed (30 s), so a server that hangs holds a turn less.
 */
export const SERVER_START_WAIT_MS = 15_000;

/** A server as the wait sees it: its status now, and a promise of its next status that is not `starting`. */
export interface StartingServer {
  readonly snapshot: Pick<ServerSnapshot, 'id' | 'status'>;
  whenSettled(): Promise<ServerStatus>;
}

export interface TurnStart {
  /** Tells the person, in the chat, what the turn is doing. */
  notice(message: string): void;
  /** Stop: the wait ends at once. */
  signal: AbortSignal;
}

/** A server as a call waits for it: its status now, and a promise of its status once it is back or stopped trying. */
export interface ReturningServer {
  readonly snapshot: Pick<ServerSnapshot, 'id' | 'status'>;
  whenBack(): Promise<ServerStatus>;
}

/**
 * A call to a server that is starting, or starting again after a crash, waits for it (a bounded while, or
 * until the call is stopped) rather than fail at once: the model that called it just before the crash
 * would otherwise be told the tool is not there, though the server is back a second later. A server that
 * failed for good, waits for the person or is off is not waited for.
 */
export async function waitForServerBack(server: ReturningServer | undefined, signal: AbortSignal, limitMs: number = SERVER_START_WAIT_MS): Promise<void> {
  const kind = server?.snapshot.status.kind;
  if (!server || (kind !== 'starting' && kind !== 'restarting') || signal.aborted) return;
  await boundedWait(server.whenBack(), limitMs, signal);
}

/** Resolves once `waited` has, after `limitMs`, or when `signal` is aborted, whichever comes first; never rejects. */
async function boundedWait(waited: Promise<unknown>, limitMs: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let stopped: (() => void) | undefined;
  const giveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
    stopped = resolve;
    signal.addEventListener('abort', stopped, { once: true });
  });
  try {
    await Promise.race([waited, giveUp]);
  } finally {
    clearTimeout(timer);
    if (stopped) signal.removeEventListener('abort', stopped);
  }
}

/** Resolves once none of `servers` is starting, after `limitMs`, or when the turn is stopped. */
export async function waitForStartingServers(servers: readonly StartingServer[], turn: TurnStart, limitMs: number = SERVER_START_WAIT_MS): Promise<void> {
  const starting = servers.filter((server) => server.snapshot.status.kind === 'starting');
  if (starting.length === 0 || turn.signal.aborted) return;
  const names = (list: readonly StartingServer[]) => listInWords(list.map((server) => server.snapshot.id));
  turn.notice(`waiting for ${names(starting)} to start, so that the model has ${starting.length === 1 ? 'its' : 'their'} tools`);
  await boundedWait(Promise.all(starting.map((server) => server.whenSettled())), limitMs, turn.signal);
  const still = starting.filter((server) => server.snapshot.status.kind === 'starting');
  if (still.length > 0 && !turn.signal.aborted) turn.notice(`${names(still)} ${still.length === 1 ? 'is' : 'are'} still starting: the model answers without ${still.length === 1 ? 'its' : 'their'} tools`);
}
