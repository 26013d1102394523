// The configured servers and where they came from. Changes the person makes (add, edit, remove, enable,
// disable) are written back to the servers file atomically; a servers file given with --config is never
// written.

import type { ConfigProblem } from '../../shared/domain.ts';
import { ChangeListeners } from '../changeListeners.ts';
import type { ServerDefinition } from './config/serverConfig.ts';
import { loadServersFile, saveServers } from './config/serversFile.ts';

export class ServerRegistry {
  private definitions: ServerDefinition[];
  private raw: Record<string, unknown> | null;
  readonly problems: ConfigProblem[];
  private readonly path: string;
  private readonly writable: boolean;
  private readonly changes = new ChangeListeners<readonly ConfigProblem[]>();

  private constructor(path: string, writable: boolean, loaded: Awaited<ReturnType<typeof loadServersFile>>) {
    this.path = path;
    this.writable = writable;
    this.definitions = loaded.servers;
    this.raw = loaded.raw;
    this.problems = loaded.problems;
  }

  static async load(path: string, writable: boolean): Promise<ServerRegistry> {
    return new ServerRegistry(path, writable, await loadServersFile(path, { dataFile: writable }));
  }

  all(): ServerDefinition[] {
    return [...this.definitions];
  }

  get(id: string): ServerDefinition | undefined {
    return this.definitions.find((d) => d.id === id);
  }

  async update(definition: ServerDefinition): Promise<void> {
    this.definitions = this.definitions.map((d) => (d.id === definition.id ? definition : d));
    await this.write();
  }

  /** Adds a server, or replaces the one with its name; `replaces` renames the server it was. */
  async save(definition: ServerDefinition, replaces?: string): Promise<void> {
    const gone = replaces !== undefined && replaces !== definition.id ? [replaces] : [];
    this.definitions = [...this.definitions.filter((d) => d.id !== definition.id && !gone.includes(d.id)), definition];
    // A problem reported for an entry the person has now rewritten is no longer current.
    this.dropProblems([definition.id, ...gone]);
    await this.write(gone);
  }

  async remove(id: string): Promise<void> {
    this.definitions = this.definitions.filter((d) => d.id !== id);
    this.dropProblems([id]);
    await this.write([id]);
  }

  /** Told with the configuration problems as they are now, after every change the person made. */
  onChange(listener: (problems: readonly ConfigProblem[]) => void): () => void {
    return this.changes.add(listener);
  }

  private dropProblems(ids: readonly string[]): void {
    for (let i = this.problems.length - 1; i >= 0; i--) if (ids.includes(this.problems[i]?.serverId ?? '')) this.problems.splice(i, 1);
  }

  private async write(removed: readonly string[] = []): Promise<void> {
    if (this.writable) {
      await saveServers(this.path, this.definitions, this.raw, removed);
      const reloaded = await loadServersFile(this.path, { dataFile: true });
      this.raw = reloaded.raw;
    }
    this.changes.tell([...this.problems]);
  }
}
