// The bundle files registry entries pointed at, kept a short while once their SHA-256 was checked: the
// plan that shows a bundle's settings and the install that follows it take the same file, downloaded
// once. Kept by address and the hash the entry lists, so only those very bytes are ever reused; the
// newest few only, and not for long, since a bundle may be tens of megabytes.

const KEPT_FILES = 2;
const KEPT_FOR_MS = 10 * 60_000;

export class RecentBundles {
  readonly #files = new Map<string, { bytes: Uint8Array; keptAt: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The file last kept for this address and hash, while it is recent. */
  get(address: string, sha256: string): Uint8Array | undefined {
    const key = keyOf(address, sha256);
    const file = this.#files.get(key);
    if (file && this.#now() - file.keptAt <= KEPT_FOR_MS) return file.bytes;
    this.#files.delete(key);
    return undefined;
  }

  /** Keeps a file whose hash was checked against `sha256`; the oldest goes when more would be kept. */
  keep(address: string, sha256: string, bytes: Uint8Array): void {
    const key = keyOf(address, sha256);
    this.#files.delete(key);
    this.#files.set(key, { bytes, keptAt: this.#now() });
    for (const oldest of this.#files.keys()) {
      if (this.#files.size <= KEPT_FILES) break;
      this.#files.delete(oldest);
    }
  }
}

const keyOf = (address: string, sha256: string) => `${address}\n${sha256.toLowerCase()}`;
