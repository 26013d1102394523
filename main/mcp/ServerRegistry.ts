// The configured servers and where they came from. Changes the person makes (enable, disable) are
// written back to the servers file atomically; a servers file given with --config is never written.

import type { ConfigProblem } from '../../shared/domain.ts';
import type { ServerDefinition } from './config/serverConfig.ts';
import { loadServersFile, saveServers } from './config/serversFile.ts';

export class ServerRegistry {
  private definitions: ServerDefinition[];
  private raw: Record<string, unknown> | null;
  readonly problems: ConfigProblem[];
  private readonly path: string;
  private readonly writable: boolean;

  private constructor(path: string, writable: boolean, loaded: Awaited<ReturnType<typeof loadServersFile>>) {
    this.path = path;
    this.writable = writable;
    this.definitions = loaded.servers;
    this.raw = loaded.raw;
    this.problems = loaded.problems;
  }

  static async load(path: string, writable: boolean): Promise<ServerRegistry> {
    return new ServerRegistry(path, writable, await loadServersFile(path));
  }

  all(): ServerDefinition[] {
    return [...this.definitions];
  }

  get(id: string): ServerDefinition | undefined {
    return this.definitions.find((d) => d.id === id);
  }

  async update(definition: ServerDefinition): Promise<void> {
    this.definitions = this.definitions.map((d) => (d.id === definition.id ? definition : d));
    if (!this.writable) return;
    await saveServers(this.path, this.definitions, this.raw);
    const reloaded = await loadServersFile(this.path);
    this.raw = reloaded.raw;
  }
}
