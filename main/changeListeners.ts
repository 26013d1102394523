// The few lines every owner of state uses to announce its own changes: listeners are added (and removed
// by the function that comes back) and told of each change. A listener that throws does not stop the
// others from hearing it.

export class ChangeListeners<T> {
  readonly #listeners = new Set<(change: T) => void>();

  add(listener: (change: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  tell(change: T): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
