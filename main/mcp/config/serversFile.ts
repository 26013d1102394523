// Reading and writing the person's servers file without ever losing it: Atrium's own file goes through
// the data-file module (a damaged one is moved aside before anything is written; writes are atomic).

import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DamagedData, jsonRecovery, readDataFile, writeFileAtomically } from '../../store/dataFile.ts';
import type { DataFileSpec } from '../../store/dataFile.ts';
import { jsonProblem } from '../../store/jsonProblem.ts';
import type { ParsedServers, ServerDefinition } from './serverConfig.ts';
import { parseServersDocument, parseServersFile } from './serverConfig.ts';
import { toStoredEntry } from './serverConfig.ts';

export const SERVERS_FILE_NAME = 'servers.json';

export function serversFilePath(home: string): string {
  return join(home, SERVERS_FILE_NAME);
}

type LoadedServers = ParsedServers & { raw: Record<string, unknown> | null };

/**
 * Reads a servers file. `dataFile`: it is Atrium's own (in the data folder), so a file that cannot be
 * read as a whole is moved aside and Atrium starts without servers; any other file (--config, another
 * app's) is only read, and its problems reported.
 */
export async function loadServersFile(path: string, options: { dataFile?: boolean } = {}): Promise<LoadedServers> {
  if (options.dataFile) return (await readDataFile(storedServersSpec(path))) ?? { servers: [], problems: [], raw: null };
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

function storedServersSpec(path: string): DataFileSpec<LoadedServers> {
  const file = basename(path);
  return {
    path,
    keepLastGood: true,
    withoutIt: 'Atrium started with no servers',
    recovery: jsonRecovery(file, `Carry on without it: servers you add now are saved in a new ${file}.`),
    parse: (bytes) => {
      const problem = jsonProblem(bytes);
      if (problem) throw new DamagedData(problem);
      const json: unknown = JSON.parse(bytes.toString('utf8'));
      const parsed = parseServersDocument(json, file);
      // Problems of the whole file (not an object, no table of servers) make it unreadable; a problem
      // with one entry is shown beside that server and the entry is kept as it is.
      const whole = parsed.problems.find((p) => p.serverId === null);
      if (whole) throw new DamagedData(whole.message.replace(`${file}: `, '').replace(file, 'the file'));
      return { ...parsed, raw: json as Record<string, unknown> };
    },
  };
}

/**
 * Writes the servers table, keeping every other top-level key of the existing document (a person may
 * keep notes or other hosts' settings there) and keeping invalid entries exactly as they were, so a
 * typo is never silently deleted by an unrelated change.
 */
/** Writes the servers; entries the file had that Atrium could not read are kept, unless `removed` names them. */
export async function saveServers(path: string, servers: ServerDefinition[], previous: Record<string, unknown> | null, removed: readonly string[] = []): Promise<void> {
  // A file damaged since it was read (an edit by hand, another program) is moved aside, never written over.
  await readDataFile(storedServersSpec(path));
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
