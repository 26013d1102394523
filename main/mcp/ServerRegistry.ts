// The configured servers and where they came from. The servers file is shared with the person and with
// other Atrium processes (`atrium import` beside the window): every change made here (add, edit,
// remove, enable, disable) is made under the file's lock to what the file holds now, never to the copy
// read earlier, so an edit made elsewhere is never written over; what changed elsewhere is taken up
// first and announced to `onChange` listeners (the hub's follower), as `refresh` does when the file
// changes. A file damaged elsewhere leaves the servers as they were and is never written. A servers file
// given with --config is read once and never written: changes to it last for the run.

import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ConfigProblem } from '../../shared/domain.ts';
import type { NameHolder } from '../../shared/serverFormLabels.ts';
import { ChangeListeners } from '../changeListeners.ts';
import { toStoredEntry } from './config/serverConfig.ts';
import type { ServerDefinition } from './config/serverConfig.ts';
import { NO_SERVERS, changeServersFile, loadServersFile, readServersFile } from './config/serversFile.ts';
import type { LoadedServers, ServersEdit } from './config/serversFile.ts';
import { ServerError } from './connection/serverError.ts';

/** What changed in the servers file since it was last read, made by someone else. */
export interface ServersChange {
  added: ServerDefinition[];
  removed: string[];
  changed: { before: ServerDefinition; after: ServerDefinition }[];
}

export class ServerRegistry {
  /** The servers file; the registry writes it only when it is Atrium's own (`writable`). */
  readonly path: string;
  readonly writable: boolean;
  private definitions: ServerDefinition[];
  /** The problems of single entries (shown beside the server); the same array for the registry's life. */
  readonly problems: ConfigProblem[];
  /** The digest of the content last read or written (null: no file), to tell a change made elsewhere. */
  private digest: string | null;
  private readonly listeners = new Set<(change: ServersChange) => void>();
  private readonly problemChanges = new ChangeListeners<readonly ConfigProblem[]>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(path: string, writable: boolean, loaded: LoadedServers, digest: string | null) {
    this.path = path;
    this.writable = writable;
    this.definitions = loaded.servers;
    this.problems = [...loaded.problems];
    this.digest = digest;
  }

  static async load(path: string, writable: boolean): Promise<ServerRegistry> {
    if (!writable) {
      // A file named on the command line that is not there is a slip to say, not "no servers".
      if (!existsSync(path)) return new ServerRegistry(path, false, { servers: [], problems: [{ serverId: null, field: '(file)', message: `${path}: there is no such file`, file: path }], raw: null }, null);
      return new ServerRegistry(path, false, await loadServersFile(path), null);
    }
    const read = await readServersFile(path);
    return read.kind === 'read' ? new ServerRegistry(path, true, read.value, read.digest) : new ServerRegistry(path, true, NO_SERVERS, null);
  }

  all(): ServerDefinition[] {
    return [...this.definitions];
  }

  get(id: string): ServerDefinition | undefined {
    return this.definitions.find((d) => d.id === id);
  }

  /**
   * What holds a name in the servers file: a server, or an entry that has a mistake (a hand edit), which
   * is not a server but must not be written over by a new one; undefined when the name is free.
   */
  nameHolder(id: string): NameHolder | undefined {
    if (this.get(id)) return 'server';
    return this.problems.some((problem) => problem.serverId === id) ? 'unreadable entry' : undefined;
  }

  /** Calls `listener` with each change made elsewhere that the registry takes up; returns the way to stop. */
  onChange(listener: (change: ServersChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told with the configuration problems as they are now, whenever the servers were changed or taken up. */
  onProblemsChange(listener: (problems: readonly ConfigProblem[]) => void): () => void {
    return this.problemChanges.add(listener);
  }

  /**
   * Takes up the file as it is now, if it changed elsewhere; a damaged file leaves the servers as they
   * were. A file that is gone is only taken as "no servers" with `ifMissing: 'empty'`: an editor saving
   * may delete it a moment before it writes it again, so by default this resolves 'missing' and changes
   * nothing, for the caller to ask again once that moment has passed.
   */
  refresh(options: { ifMissing?: 'wait' | 'empty' } = {}): Promise<'missing' | undefined> {
    if (!this.writable) return Promise.resolve(undefined);
    return this.serially(async () => {
      const read = await readServersFile(this.path, 'leave');
      if (read.kind === 'read') this.adopt(read.value, read.digest);
      if (read.kind !== 'missing' || this.digest === null) return undefined;
      if (options.ifMissing !== 'empty') return 'missing';
      this.adopt(NO_SERVERS, null);
      return undefined;
    });
  }

  /**
   * Saves what the caller changed in a server it read from the registry (on or off, its tools), on top
   * of the server as the file has it now: fields changed elsewhere meanwhile are kept. Resolves with the
   * server as saved, which is what should run.
   */
  async update(definition: ServerDefinition): Promise<ServerDefinition> {
    // What the caller started from: read now, before any change made elsewhere is taken up.
    const base = this.get(definition.id);
    let saved = definition;
    await this.change([definition.id], (current) => {
      const theirs = current.servers.find((server) => server.id === definition.id);
      if (!theirs) {
        // Removed elsewhere, or its entry now has a mistake: either way, not Atrium's to write back.
        const problem = current.problems.find((p) => p.serverId === definition.id);
        if (problem) throw new ServerError(definition.id, 'failed', `${problem.message}; fix it in ${basename(this.path)}, then try again`);
        throw new ServerError(definition.id, 'not_found', `there is no server named "${definition.id}" in ${basename(this.path)} any more`);
      }
      saved = base ? withChanges(theirs, base, definition) : definition;
      return { servers: current.servers.map((server) => (server.id === saved.id ? saved : server)) };
    });
    return saved;
  }

  /** Adds a server, or replaces the one with its name; `replaces` renames the server it was. */
  async save(definition: ServerDefinition, replaces?: string): Promise<void> {
    const gone = replaces !== undefined && replaces !== definition.id ? [replaces] : [];
    await this.change([definition.id, ...gone], (current) => ({
      servers: [...current.servers.filter((d) => d.id !== definition.id && !gone.includes(d.id)), definition],
      removed: gone,
    }));
  }

  async remove(id: string): Promise<void> {
    await this.change([id], (current) => ({ servers: current.servers.filter((d) => d.id !== id), removed: [id] }));
  }

  /** Makes `edit` on the file as it is now; `ids` are the entries it rewrites, whose old problems go. */
  private change(ids: readonly string[], edit: (current: LoadedServers) => ServersEdit | undefined): Promise<void> {
    return this.serially(async () => {
      if (!this.writable) {
        const next = edit({ servers: this.definitions, problems: this.problems, raw: null });
        if (next) this.definitions = [...next.servers];
        for (let i = this.problems.length - 1; i >= 0; i--) if (ids.includes(this.problems[i]?.serverId ?? '')) this.problems.splice(i, 1);
        this.problemChanges.tell([...this.problems]);
        return;
      }
      const written = await changeServersFile(this.path, (current, digest) => {
        // What changed elsewhere is taken up (and announced) first; this change is made on top of it.
        this.adopt(current, digest);
        return edit(current);
      });
      // The caller applies its own change to the running servers; only the state is taken here.
      this.adopt(written.loaded, written.digest, false);
      this.problemChanges.tell([...this.problems]);
    });
  }

  private adopt(loaded: LoadedServers, digest: string | null, announce = true): void {
    if (digest === this.digest) return;
    const before = this.definitions;
    this.definitions = loaded.servers;
    this.problems.splice(0, this.problems.length, ...loaded.problems);
    this.digest = digest;
    if (!announce) return;
    this.problemChanges.tell([...this.problems]);
    const change = difference(before, loaded.servers);
    for (const listener of this.listeners) listener(change);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** `theirs` with the fields the caller changed from `base` to `mine` (a three-way merge per field). */
function withChanges(theirs: ServerDefinition, base: ServerDefinition, mine: ServerDefinition): ServerDefinition {
  const merged: Record<string, unknown> = { ...theirs };
  const from = base as unknown as Record<string, unknown>;
  const to = mine as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (JSON.stringify(from[key]) === JSON.stringify(to[key])) continue;
    if (to[key] === undefined) delete merged[key];
    else merged[key] = to[key];
  }
  return merged as unknown as ServerDefinition;
}

function difference(before: readonly ServerDefinition[], after: readonly ServerDefinition[]): ServersChange {
  const old = new Map(before.map((server) => [server.id, server]));
  const now = new Map(after.map((server) => [server.id, server]));
  return {
    added: after.filter((server) => !old.has(server.id)),
    removed: before.filter((server) => !now.has(server.id)).map((server) => server.id),
    changed: after.flatMap((server) => {
      const was = old.get(server.id);
      // Compared as written (key order aside), so a file another Atrium only rewrote in its own words changes nothing.
      return was && !isDeepStrictEqual(toStoredEntry(was), toStoredEntry(server)) ? [{ before: was, after: server }] : [];
    }),
  };
}
