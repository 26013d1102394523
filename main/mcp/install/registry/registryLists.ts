// A registry's list of servers, kept: a registry promises no uptime, so what it last answered is kept in
// the data folder's cache (one file per registry address) and used when it does not answer now — said
// with the age of the copy and why. A list fetched in the last few minutes is used as it is, so typing a
// search does not read every page of the registry again.

import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RegistryClient, RegistryListing } from './registryClient.ts';
import type { RegistryRecord } from './registryRecords.ts';
import { readRecord } from './registryRecords.ts';

/** A list younger than this is used without asking the registry again (unless the person asks to refresh). */
const FRESH_MS = 10 * 60 * 1000;

export interface KeptListing extends RegistryListing {
  address: string;
  fetchedAt: number;
  /** The registry did not answer now: why; the list is the copy kept from `fetchedAt`. */
  fromCopy?: string;
}

export class RegistryLists {
  private readonly folder: string;
  private readonly now: () => number;

  constructor(home: string, now: () => number = Date.now) {
    this.folder = join(home, 'cache', 'registry');
    this.now = now;
  }

  async latest(client: RegistryClient, options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<KeptListing> {
    const kept = await this.read(client.address);
    if (kept && !options.refresh && this.now() - kept.fetchedAt < FRESH_MS && kept.fetchedAt <= this.now()) return kept;
    let listing: RegistryListing;
    try {
      listing = await client.listLatest(options.signal);
    } catch (error) {
      if (!kept || options.signal?.aborted) throw error;
      return { ...kept, fromCopy: (error as Error).message };
    }
    const fresh = { address: client.address, fetchedAt: this.now(), ...listing };
    await this.write(fresh);
    return fresh;
  }

  private fileFor(address: string): string {
    return join(this.folder, `${createHash('sha256').update(address).digest('hex').slice(0, 24)}.json`);
  }

  /** The copy kept for this registry; none when there is none or it cannot be read (it is only a cache). */
  private async read(address: string): Promise<KeptListing | undefined> {
    try {
      const value = JSON.parse(await readFile(this.fileFor(address), 'utf8')) as { address?: unknown; fetchedAt?: unknown; skipped?: unknown; records?: unknown };
      if (value.address !== address || typeof value.fetchedAt !== 'number' || !Array.isArray(value.records)) return undefined;
      // Read again as a registry's answer: the cache is a file like any other in the data folder.
      const records = value.records.map((record: unknown) => readRecord(cachedAsAnswer(record))).filter((record): record is RegistryRecord => record !== undefined);
      return { address, fetchedAt: value.fetchedAt, records, skipped: typeof value.skipped === 'number' ? value.skipped : 0 };
    } catch {
      return undefined;
    }
  }

  private async write(listing: KeptListing): Promise<void> {
    try {
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      const path = this.fileFor(listing.address);
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify({ address: listing.address, fetchedAt: listing.fetchedAt, skipped: listing.skipped, records: listing.records }), { mode: 0o600 });
      await rename(temporary, path);
    } catch {
      // A copy that cannot be kept only means the next run asks the registry again.
    }
  }
}

/** A kept record in the shape of a registry's list item, so it is read by the same check. */
function cachedAsAnswer(record: unknown): unknown {
  const r = record as Partial<RegistryRecord> | null;
  if (!r || typeof r !== 'object') return undefined;
  return {
    server: r.server,
    _meta: { 'io.modelcontextprotocol.registry/official': { status: r.status, ...(r.statusMessage ? { statusMessage: r.statusMessage } : {}), ...(r.isLatest !== undefined ? { isLatest: r.isLatest } : {}) } },
  };
}
