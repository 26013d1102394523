// A connection's attempts at a session, one after another: every start and every stop begins a new one.
// A callback of an attempt that a later one superseded is ignored (`isCurrent`), and a start it still had
// under way is called off (`signal`), its process with it, rather than running on to its time limit.

export class Attempts {
  #current = 0;
  #calledOff = new AbortController();

  /** The attempt of now. */
  get current(): number {
    return this.#current;
  }

  /** Aborted once a later attempt supersedes the one of now. */
  get signal(): AbortSignal {
    return this.#calledOff.signal;
  }

  /** Begins a new attempt, superseding the one of now; returns its number. */
  next(): number {
    this.#calledOff.abort();
    this.#calledOff = new AbortController();
    return ++this.#current;
  }

  isCurrent(attempt: number): boolean {
    return attempt === this.#current;
  }
}
