// What a person already has, found on a first run: the MCP servers of other hosts' config files (Claude
// Desktop, VS Code, Cursor), and an OpenAI-compatible model server answering on its usual loopback port
// (Ollama 11434, LM Studio 1234, llama.cpp 8080). Nothing found is used until the person says so.

import { homedir } from 'node:os';
import type { OfferedServer } from '../../../shared/contract.ts';
import { join } from 'node:path';
import { describeTarget, isSameServer } from '../../mcp/config/serverConfig.ts';
import type { ServerDefinition } from '../../mcp/config/serverConfig.ts';
import { loadServersFile } from '../../mcp/config/serversFile.ts';

export interface DiscoveredConfig {
  app: string;
  path: string;
  servers: OfferedServer[];
  problems: string[];
}

export interface DiscoveredModelServer {
  name: string;
  baseUrl: string;
  models: string[];
}

/** Where each host keeps its MCP servers, on this platform. */
export function knownConfigPaths(home: string = homedir(), platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): { app: string; path: string }[] {
  const appData = platform === 'win32' ? (env['APPDATA'] ?? join(home, 'AppData', 'Roaming')) : platform === 'darwin' ? join(home, 'Library', 'Application Support') : (env['XDG_CONFIG_HOME'] ?? join(home, '.config'));
  return [
    { app: 'Claude Desktop', path: join(appData, 'Claude', 'claude_desktop_config.json') },
    { app: 'VS Code', path: join(appData, 'Code', 'User', 'mcp.json') },
    { app: 'Cursor', path: join(home, '.cursor', 'mcp.json') },
  ];
}

/** The servers of each config that exists; one Atrium already has (`present`) names itself in `alreadyAs`. */
export async function discoverConfigs(paths: readonly { app: string; path: string }[], present: readonly ServerDefinition[] = []): Promise<DiscoveredConfig[]> {
  const found: DiscoveredConfig[] = [];
  for (const { app, path } of paths) {
    const loaded = await loadServersFile(path).catch(() => null);
    if (!loaded || (loaded.raw === null && loaded.problems.length === 0)) continue;
    found.push({
      app,
      path,
      servers: loaded.servers.map((server) => offeredServer(server, present)),
      problems: loaded.problems.map((p) => p.message),
    });
  }
  return found;
}

/** A found server as the person is shown it: its exact command line or address, and whether Atrium has it already. */
export function offeredServer(server: ServerDefinition, present: readonly ServerDefinition[]): OfferedServer {
  const already = present.find((mine) => isSameServer(mine, server));
  return { id: server.id, transport: server.transport, target: describeTarget(server), ...(already ? { alreadyAs: already.id } : {}) };
}

export const LOCAL_MODEL_SERVERS: readonly { name: string; port: number }[] = [
  { name: 'Ollama', port: 11434 },
  { name: 'LM Studio', port: 1234 },
  { name: 'llama.cpp', port: 8080 },
];

/** Asks each usual port for its models (OpenAI-compatible GET /v1/models), briefly; silence means nothing is there. */
export async function probeModelServers(candidates: readonly { name: string; port: number }[] = LOCAL_MODEL_SERVERS, timeoutMs = 800): Promise<DiscoveredModelServer[]> {
  const results = await Promise.all(
    candidates.map(async ({ name, port }) => {
      const baseUrl = `http://127.0.0.1:${port}/v1`;
      try {
        const response = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(timeoutMs) });
        if (!response.ok) return null;
        const body = (await response.json()) as { data?: { id?: unknown }[] };
        const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
        return { name, baseUrl, models };
      } catch {
        return null;
      }
    }),
  );
  return results.filter((r): r is DiscoveredModelServer => r !== null);
}
