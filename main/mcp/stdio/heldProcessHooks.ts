// The hooks of a server process started before its session exists (sessionOpener.ts starts the process,
// then loads the session's code): what the process does meanwhile (stderr lines, stray stdout, its exit)
// is kept, and replayed to the session's own hooks when the session takes the process over.
import type { ServerLog } from '../serverLog.ts';
import type { ProcessExitInfo, StdioProcessHooks } from './stdioProcessTransport.ts';

/** How many events are kept before the session takes over; a server that writes more drops the oldest. */
const MAX_HELD = 1_000;

export class HeldProcessHooks implements StdioProcessHooks {
  readonly #log: ServerLog;
  #target: StdioProcessHooks | undefined;
  #held: ((hooks: StdioProcessHooks) => void)[] = [];
  #dropped = 0;

  constructor(log: ServerLog) {
    this.#log = log;
  }

  onStderrLine(line: string): void {
    this.#deliver((hooks) => hooks.onStderrLine(line));
  }

  onNoise(line: string): void {
    this.#deliver((hooks) => hooks.onNoise(line));
  }

  onExit(info: ProcessExitInfo): void {
    this.#deliver((hooks) => hooks.onExit(info));
  }

  /** The session's hooks hear, in order, what was kept, then everything from now on; returns `value`. */
  handTo<T>(hooks: StdioProcessHooks, value: T): T {
    if (this.#dropped > 0) this.#log.add('warning', 'host', `the server wrote more than ${MAX_HELD} lines as it started; the first ${this.#dropped} are not in this log`);
    for (const replay of this.#held) replay(hooks);
    this.#held = [];
    this.#target = hooks;
    return value;
  }

  #deliver(event: (hooks: StdioProcessHooks) => void): void {
    if (this.#target) {
      event(this.#target);
      return;
    }
    this.#held.push(event);
    if (this.#held.length > MAX_HELD) {
      this.#held.shift();
      this.#dropped++;
    }
  }
}
