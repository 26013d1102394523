// Servers that exit together (a quit, new roots, several edited at once) are told to the reaper in one
// line, so it reaps them in one pass: each pass scans the whole process table with a dozen short
// processes, and a pass each made stopping ten servers cost the machine more than running them did.
// A lone server's leftovers are reaped `delayMs` later; a host that quits meanwhile leaves them all to
// the reaper's last pass, which it makes when the host is gone.

export class ExitBatch {
  readonly #send: (line: string) => void;
  readonly #delayMs: number;
  #pids: number[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(send: (line: string) => void, delayMs: number) {
    this.#send = send;
    this.#delayMs = delayMs;
  }

  add(pid: number): void {
    this.#pids.push(pid);
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#send(`- ${this.#pids.splice(0).join(' ')}`);
    }, this.#delayMs);
    // Never what keeps a host running: its exit hands everything to the reaper anyway.
    this.#timer.unref();
  }
}
