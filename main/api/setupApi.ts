// The first-run half of the typed contract: what the person already has (other hosts' servers, a local
// model server), and bringing it in when they say so: imported servers with the trust the person chose
// (one Atrium already runs is not added again), the built-in sample server, a local model server as a
// provider.

import { fileURLToPath } from 'node:url';
import type { AtriumApi } from '../../shared/contract.ts';
import type { ServerSnapshot } from '../../shared/domain.ts';
import type { DiscoveredModelServer } from '../host/setup/discoverSetup.ts';
import { discoverConfigs, knownConfigPaths, LOCAL_MODEL_SERVERS, offeredServer, probeModelServers } from '../host/setup/discoverSetup.ts';
import type { ServerDefinition } from '../mcp/config/serverConfig.ts';
import { isSameServer, parseServerEntry } from '../mcp/config/serverConfig.ts';
import { parsePastedServers } from '../mcp/config/pastedServers.ts';
import { loadServersFile } from '../mcp/config/serversFile.ts';
import type { McpHub } from '../mcp/McpHub.ts';
import type { ServerRegistry } from '../mcp/ServerRegistry.ts';
import { InvalidServerConfigError } from './serverConfigApi.ts';
import type { SettingsStore } from '../store/settingsStore.ts';

type SetupRequests = Pick<AtriumApi, 'discoverSetup' | 'importServers' | 'addSampleServer' | 'previewServerConfig' | 'addPastedServers' | 'useModelServer'>;

export interface SetupDeps {
  home: string;
  hub: McpHub;
  registry: ServerRegistry;
  /** The saved settings: a provider added here applies to the next conversation at once. */
  settings: SettingsStore;
  configPaths?: () => { app: string; path: string }[];
  probe?: () => Promise<DiscoveredModelServer[]>;
  /** How the sample server is started; this Node running its source by default. */
  sampleServer?: SampleServerLaunch;
}

/** The command line that runs Atrium's sample server, as a stdio server entry holds it. */
export interface SampleServerLaunch {
  command: string;
  args: string[];
}

/**
 * A plain Node process (the browser mode, the CLI) runs the sample server's source itself. The path goes
 * up to the repository and down again, so it holds from this file and from the bundle in dist/node/.
 */
export const sourceSampleServer: SampleServerLaunch = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../../main/sampleServer/sampleServer.ts', import.meta.url))],
};

export function createSetupApi(deps: SetupDeps): SetupRequests {
  const configPaths = deps.configPaths ?? (() => knownConfigPaths());
  const probe = deps.probe ?? (() => probeModelServers());
  const freeName = (wanted: string) => {
    let id = wanted;
    for (let n = 2; deps.registry.get(id); n++) id = `${wanted}-${n}`;
    return id;
  };
  const add = async (definition: ServerDefinition): Promise<ServerSnapshot> => {
    await deps.registry.save(definition);
    await deps.hub.replace(definition);
    return deps.hub.get(definition.id).snapshot;
  };

  const sampleServer = (): ServerDefinition => {
    const { command, args } = deps.sampleServer ?? sourceSampleServer;
    const parsed = parseServerEntry('atrium-sample', { command, args });
    if ('problem' in parsed) throw new InvalidServerConfigError(parsed.problem.message);
    return parsed.server;
  };
  const present = (server: ServerDefinition) => deps.registry.all().find((mine) => isSameServer(mine, server));

  return {
    discoverSetup: async () => {
      const [configs, modelServers] = await Promise.all([discoverConfigs(configPaths(), deps.registry.all()), probe()]);
      const sample = present(sampleServer());
      return {
        configs,
        modelServers,
        hasProviders: deps.settings.current().providers.length > 0,
        hasServers: deps.registry.all().length > 0,
        ...(sample ? { sampleServerId: sample.id } : {}),
      };
    },
    importServers: async ({ path, servers }) => {
      // Only the other hosts' own files: a window may not make Atrium read, and then run, any file it names.
      if (!configPaths().some((known) => known.path === path)) throw new InvalidServerConfigError(`${path} is not a config file Atrium knows how to import`);
      const source = await loadServersFile(path);
      const imported: ServerSnapshot[] = [];
      for (const { id, trusted } of servers) {
        const found = source.servers.find((s) => s.id === id);
        if (!found) throw new InvalidServerConfigError(`${path} has no server "${id}"`);
        // Importing twice must not run the same server twice: one Atrium already has is left as it is.
        if (deps.registry.all().some((mine) => isSameServer(mine, found))) continue;
        // The person saw each command line in the list they chose from: the chosen ones start now.
        imported.push(await add({ ...found, id: freeName(id), trusted, disabled: false }));
      }
      return imported;
    },
    addSampleServer: async () => {
      const sample = sampleServer();
      const already = present(sample);
      if (already) return { server: deps.hub.get(already.id).snapshot, added: false };
      // Atrium's own server declares its tools honestly, so it comes trusted; like any new server it runs
      // once the person has seen its command line and started it.
      return { server: await add({ ...sample, id: freeName(sample.id), trusted: true, disabled: true }), added: true };
    },
    previewServerConfig: async ({ text }) => {
      const parsed = parsePastedServers(text);
      if ('error' in parsed) return { error: parsed.error, servers: [], problems: [] };
      return { servers: parsed.servers.map((server) => offeredServer(server, deps.registry.all())), problems: parsed.problems.map((p) => p.message) };
    },
    addPastedServers: async ({ text, servers }) => {
      const parsed = parsePastedServers(text);
      if ('error' in parsed) throw new InvalidServerConfigError(parsed.error);
      const added: ServerSnapshot[] = [];
      for (const id of servers) {
        const found = parsed.servers.find((s) => s.id === id);
        if (!found) throw new InvalidServerConfigError(`the pasted text has no server "${id}"`);
        if (present(found)) continue;
        // Whatever the text says, a pasted server is not trusted and stays off until the person starts it.
        added.push(await add({ ...found, id: freeName(id), trusted: false, disabled: true }));
      }
      return added;
    },
    useModelServer: async ({ baseUrl }) => {
      const known = LOCAL_MODEL_SERVERS.find(({ port }) => baseUrl === `http://127.0.0.1:${port}/v1`);
      if (!known) throw new InvalidServerConfigError(`${baseUrl} is not a local model server Atrium looks for`);
      const [found] = await probe().then((all) => all.filter((s) => s.baseUrl === baseUrl));
      if (!found) throw new InvalidServerConfigError(`nothing answers at ${baseUrl} any more`);
      const id = found.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      await deps.settings.update((current) => ({
        ...current,
        providers: [...current.providers.filter((p) => p.id !== id), { id, kind: 'openai-compatible', baseUrl, ...(found.models.length ? { models: found.models } : {}) }],
        ...(!current.default && found.models[0] ? { default: { provider: id, model: found.models[0] } } : {}),
      }));
      return null;
    },
  };
}
