// Whether the tools a connection holds are the server's latest. A server announces a change
// (notifications/tools/list_changed) before the new list is read; a call made in between would run against
// a definition nobody has seen. So a call waits until the list that answers the announcement is read —
// bounded, so a server that announces and never answers cannot hold calls for ever.

export class AnnouncedToolChanges {
  #announced = 0;
  #listed = 0;
  #waiters = new Set<() => void>();

  /** The server said its tools changed. */
  announce(): void {
    this.#announced++;
  }

  /** A listing begins: what it returns answers every announcement made so far. */
  listingStarts(): number {
    return this.#announced;
  }

  /** A listing that began at `mark` ended (read, or failed and logged). */
  listingEnded(mark: number): void {
    this.#listed = Math.max(this.#listed, mark);
    if (this.#listed >= this.#announced) this.#wake();
  }

  /** Whether a change was announced that no listing has answered yet. */
  get pending(): boolean {
    return this.#listed < this.#announced;
  }

  /** The session ended: its announcements are moot, and no call waits on them. */
  reset(): void {
    this.#listed = this.#announced;
    this.#wake();
  }

  /** Resolves once every announced change has been listed, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    if (this.#listed >= this.#announced) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#waiters.add(done);
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
