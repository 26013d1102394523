// Reading and writing the person's servers file without ever losing it: Atrium's own file goes through
// the data-file module (a damaged one is moved aside, or left where it is, before anything is written;
// a change is made under its lock to what it holds now; writes are atomic).

import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DamagedData, jsonRecovery, loadDataFile, updateDataFile } from '../../store/dataFile.ts';
import type { DataFileRead, DataFileSpec, IfDamaged } from '../../store/dataFile.ts';
import { jsonFileText, jsonProblem } from '../../../shared/jsonProblem.ts';
import type { ParsedServers, ServerDefinition } from './serverConfig.ts';
import { parseServersDocument, parseServersFile } from './serverConfig.ts';
import { toStoredEntry } from './serverConfig.ts';

export const SERVERS_FILE_NAME = 'servers.json';

export function serversFilePath(home: string): string {
  return join(home, SERVERS_FILE_NAME);
}

export type LoadedServers = ParsedServers & { raw: Record<string, unknown> | null };

/** What a missing servers file holds. */
export const NO_SERVERS: LoadedServers = Object.freeze({ servers: [], problems: [], raw: null });

/**
 * Reads a servers file. `dataFile`: it is Atrium's own (in the data folder), so a file that cannot be
 * read as a whole is moved aside and Atrium starts without servers; any other file (--config, another
 * app's) is only read, and its problems reported.
 */
export async function loadServersFile(path: string, options: { dataFile?: boolean } = {}): Promise<LoadedServers> {
  if (options.dataFile) {
    const read = await readServersFile(path);
    return read.kind === 'read' ? read.value : { ...NO_SERVERS };
  }
  let text: string;
  try {
    text = jsonFileText(await readFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...NO_SERVERS };
    return { servers: [], problems: [{ serverId: null, field: '(file)', message: unreadable(path, (error as NodeJS.ErrnoException).code) }], raw: null };
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

/** Why another program's config file cannot be read, in a person's words. */
function unreadable(path: string, code: string | undefined): string {
  if (code === 'EISDIR') return `${path} is a folder: give the config file in it (for example claude_desktop_config.json)`;
  if (code === 'EACCES' || code === 'EPERM') return `${path} cannot be read: Atrium is not allowed to read it`;
  return `${path} cannot be read (${code ?? 'unknown error'})`;
}

/** Atrium's own servers file as it is now (a damaged one set aside, or with 'leave' left where it is). */
export function readServersFile(path: string, ifDamaged?: IfDamaged): Promise<DataFileRead<LoadedServers>> {
  return loadDataFile(storedServersSpec(path), ifDamaged ? { ifDamaged } : {});
}

/** What a change makes of the servers: the servers to keep, and the entries it removes. */
export interface ServersEdit {
  servers: readonly ServerDefinition[];
  /** Entries to drop even where Atrium could not read them (a removed or renamed server). */
  removed?: readonly string[];
}

/**
 * Changes Atrium's own servers file under its lock: `edit` gets what the file holds now (and its digest,
 * null when there is no file) and returns the change, or undefined to leave the file as it is. A file
 * that cannot be read now is left where it is and the change refused (DamagedFileError). Resolves with
 * what the file holds afterwards.
 */
export async function changeServersFile(path: string, edit: (current: LoadedServers, digest: string | null) => ServersEdit | undefined): Promise<{ loaded: LoadedServers; digest: string | null }> {
  const after = await updateDataFile(storedServersSpec(path), (current) => {
    const loaded = current.kind === 'read' ? current.value : { ...NO_SERVERS };
    const change = edit(loaded, current.kind === 'read' ? current.digest : null);
    return change && serversDocument(change.servers, loaded.raw, change.removed);
  });
  return after.kind === 'read' ? { loaded: after.value, digest: after.digest } : { loaded: { ...NO_SERVERS }, digest: null };
}

function storedServersSpec(path: string): DataFileSpec<LoadedServers> {
  const file = basename(path);
  return {
    path,
    keepLastGood: true,
    editedByPerson: true,
    withoutIt: 'Atrium started with no servers',
    whileDamaged: 'Atrium keeps the servers it had',
    // A running Atrium follows the file, so a copy put back is taken up without a restart.
    recovery: jsonRecovery(file, `Carry on without it: servers you add now are saved in a new ${file}.`, { takenUpWhileRunning: true }),
    parse: (bytes) => {
      const problem = jsonProblem(bytes);
      if (problem) throw new DamagedData(problem);
      const json: unknown = JSON.parse(jsonFileText(bytes));
      const parsed = parseServersDocument(json, file, path);
      // Problems of the whole file (not an object, no table of servers) make it unreadable; a problem
      // with one entry is shown beside that server and the entry is kept as it is.
      const whole = parsed.problems.find((p) => p.serverId === null);
      if (whole) throw new DamagedData(whole.message.replace(`${file}: `, '').replace(file, 'the file'));
      return { ...parsed, raw: json as Record<string, unknown> };
    },
  };
}

/**
 * The servers file's text with `servers` as its table: every other top-level key of the document is kept
 * (a person may keep notes or other hosts' settings there), entries Atrium could not read are kept
 * exactly as written unless `removed` names them (a typo is never silently deleted by an unrelated
 * change), and entries keep their place.
 */
export function serversDocument(servers: readonly ServerDefinition[], previous: Record<string, unknown> | null, removed: readonly string[] = []): string {
  const byId = new Map(servers.map((server) => [server.id, server]));
  const table: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(serversTableOf(previous))) {
    const server = byId.get(id);
    if (server) table[id] = toStoredEntry(server);
    else if (!removed.includes(id)) table[id] = entry;
  }
  for (const server of servers) if (!(server.id in table)) table[server.id] = toStoredEntry(server);
  const { servers: _vsCodeTable, ...rest } = previous ?? {};
  return `${JSON.stringify({ ...rest, mcpServers: table }, null, 2)}\n`;
}

export function serversTableOf(doc: Record<string, unknown> | null): Record<string, unknown> {
  const table = doc?.mcpServers ?? doc?.servers;
  return typeof table === 'object' && table !== null && !Array.isArray(table) ? (table as Record<string, unknown>) : {};
}
