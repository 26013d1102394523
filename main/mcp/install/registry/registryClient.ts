// Asks an MCP Registry (API /v0.1) for its servers: every page of the list of latest versions, or one
// server's version. A registry promises no uptime and is not trusted: each answer is read whole within a
// size cap and a time limit, a page that loops back on itself or never ends stops the listing, and what
// fails is said in a sentence naming the registry.

import { readBounded } from '../../http/boundedBody.ts';
import { InstallError } from '../installError.ts';
import type { RegistryRecord } from './registryRecords.ts';
import { readPage, readRecord } from './registryRecords.ts';
import { networkFailureOf } from '../../../../shared/networkFailure.ts';

export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io';

const PAGE_SIZE = 100;
/** More pages than this is a registry that never ends, not a big one (the official one has a few dozen). */
const MAX_PAGES = 1000;
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 20_000;

export interface RegistryListing {
  records: RegistryRecord[];
  /** Entries that did not fit the schema and were left out. */
  skipped: number;
}

export interface RegistryClient {
  readonly address: string;
  /** The latest version of every server, every page of them. */
  listLatest(signal?: AbortSignal): Promise<RegistryListing>;
  /** One version of one server; without a version, its latest. */
  entry(name: string, version?: string, signal?: AbortSignal): Promise<RegistryRecord>;
}

/** How long one answer may take (tests shorten it). */
export interface RegistryLimits {
  timeoutMs: number;
}

export function registryClient(address: string, fetchImpl: typeof fetch = fetch, limits: RegistryLimits = { timeoutMs: REQUEST_TIMEOUT_MS }): RegistryClient {
  const base = address.replace(/\/+$/, '');
  const get = async (path: string, signal: AbortSignal | undefined): Promise<{ status: number; body: unknown }> => {
    const limit = AbortSignal.timeout(limits.timeoutMs);
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, { headers: { Accept: 'application/json' }, redirect: 'follow', signal: signal ? AbortSignal.any([signal, limit]) : limit });
      response = await readBounded(response, { maxBytes: MAX_ANSWER_BYTES, tooLarge: () => new InstallError('failed', `the registry at ${base} sent an answer over ${MAX_ANSWER_BYTES / 1024 / 1024} MB`) });
    } catch (error) {
      if (error instanceof InstallError) throw error;
      if (limit.aborted) throw new InstallError('failed', `the registry at ${base} did not answer within ${limits.timeoutMs / 1000} s: try again later`);
      // fetch says only "fetch failed"; its causes say why (host not found: is this computer online?).
      throw new InstallError('failed', `the registry at ${base} could not be reached (${networkFailureOf(error) ?? (error as Error).message}): check this computer's connection, then try again`);
    }
    if (response.status === 404) return { status: 404, body: undefined };
    if (!response.ok) throw new InstallError('failed', `the registry at ${base} answered ${response.status} ${response.statusText}`.trim());
    try {
      return { status: response.status, body: JSON.parse(await response.text()) as unknown };
    } catch {
      throw new InstallError('failed', `the registry at ${base} did not answer with JSON: is it an MCP Registry (API v0.1)?`);
    }
  };
  return {
    address: base,
    listLatest: async (signal) => {
      const records: RegistryRecord[] = [];
      const seen = new Set<string>();
      let skipped = 0;
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = new URLSearchParams({ limit: String(PAGE_SIZE), version: 'latest', ...(cursor !== undefined ? { cursor } : {}) });
        const { body } = await get(`/v0.1/servers?${query}`, signal);
        const read = readPage(body);
        if (!read) throw new InstallError('failed', `the registry at ${base} answered with something that is not a list of servers: is it an MCP Registry (API v0.1)?`);
        records.push(...read.records);
        skipped += read.skipped;
        if (read.nextCursor === undefined) return { records, skipped };
        if (seen.has(read.nextCursor)) throw new InstallError('failed', `the registry at ${base} sent a page cursor it had sent before: its list loops`);
        seen.add(read.nextCursor);
        cursor = read.nextCursor;
      }
      throw new InstallError('failed', `the registry at ${base} sent more than ${MAX_PAGES} pages: Atrium stopped reading it`);
    },
    entry: async (name, version, signal) => {
      const { status, body } = await get(`/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version ?? 'latest')}`, signal);
      if (status === 404) throw new InstallError('not_found', `the registry at ${base} has no server named ${name}${version ? ` at version ${version}` : ''}`);
      const record = readRecord(body);
      if (!record) throw new InstallError('failed', `the registry at ${base} sent an entry for ${name} that does not fit the server.json schema`);
      if (record.server.name !== name) throw new InstallError('failed', `the registry at ${base} answered for ${name} with another server (${record.server.name})`);
      if (version !== undefined && record.server.version !== version) throw new InstallError('failed', `the registry at ${base} answered for ${name} ${version} with version ${record.server.version}`);
      return record;
    },
  };
}
