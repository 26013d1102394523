// Reading and writing the person's servers file without ever losing it: every write goes to a temporary
// file that is flushed and renamed over the old one, and the previous version is kept as `.bak`.

import { constants } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ParsedServers, ServerDefinition } from './serverConfig.ts';
import { parseServersFile, toStoredEntry } from './serverConfig.ts';

export const SERVERS_FILE_NAME = 'servers.json';

export function serversFilePath(home: string): string {
  return join(home, SERVERS_FILE_NAME);
}

export async function loadServersFile(path: string): Promise<ParsedServers & { raw: Record<string, unknown> | null }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [], problems: [], raw: null };
    return { servers: [], problems: [{ serverId: null, field: '(file)', message: `cannot read ${path}: ${(error as Error).message}` }], raw: null };
  }
  const parsed = parseServersFile(text, path);
  let raw: Record<string, unknown> | null = null;
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) raw = json as Record<string, unknown>;
  } catch {
    raw = null;
  }
  return { ...parsed, raw };
}

/**
 * Writes the servers table, keeping every other top-level key of the existing document (a person may
 * keep notes or other hosts' settings there) and keeping invalid entries exactly as they were, so a
 * typo is never silently deleted by an unrelated change.
 */
/** Writes the servers; entries the file had that Atrium could not read are kept, unless `removed` names them. */
export async function saveServers(path: string, servers: ServerDefinition[], previous: Record<string, unknown> | null, removed: readonly string[] = []): Promise<void> {
  const previousTable = serversTableOf(previous);
  const table: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(previousTable)) {
    if (!servers.some((s) => s.id === id) && !removed.includes(id)) table[id] = entry;
  }
  for (const server of servers) table[server.id] = toStoredEntry(server);
  const { servers: _vsCodeTable, ...rest } = previous ?? {};
  const doc = { ...rest, mcpServers: table };
  await writeFileAtomically(path, `${JSON.stringify(doc, null, 2)}\n`);
}

export function serversTableOf(doc: Record<string, unknown> | null): Record<string, unknown> {
  const table = doc?.mcpServers ?? doc?.servers;
  return typeof table === 'object' && table !== null && !Array.isArray(table) ? (table as Record<string, unknown>) : {};
}

/**
 * Writes through a synced temp file and a rename: a crash leaves the old file or the new, never half.
 * The previous version is kept as `.bak` unless `backup` is false (secrets: a deleted one must be gone).
 */
export async function writeFileAtomically(path: string, text: string | Uint8Array, options: { backup?: boolean } = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (options.backup !== false) await copyFile(path, `${path}.bak`, constants.COPYFILE_FICLONE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      await rm(temp, { force: true });
      throw error;
    }
  }
  await rename(temp, path);
}
