// The headless host: servers file → registry → hub of connections, the roots store and the brokers,
// behind the typed API. Every front end (Electron, the browser bridge, the CLI, the conformance
// client) starts exactly this.

import { readFileSync } from 'node:fs';
import type { AtriumApi } from '../../shared/contract.ts';
import type { ConfigProblem } from '../../shared/domain.ts';
import { createAtriumApi } from '../api/atriumApi.ts';
import { EventBus } from '../api/eventBus.ts';
import { serversFilePath } from '../mcp/config/serversFile.ts';
import { McpHub } from '../mcp/McpHub.ts';
import { ServerRegistry } from '../mcp/ServerRegistry.ts';
import type { RestartPolicy } from '../mcp/connection/restartPolicy.ts';
import { CachedSchemaValidator } from '../mcp/schemaValidatorCache.ts';
import type { ElicitationBroker, SamplingBroker } from './brokers.ts';
import { declineElicitation, refuseSampling } from './brokers.ts';
import { withElicitationDefaults } from './elicitationDefaults.ts';
import { RootsStore } from './rootsStore.ts';

export interface HostCoreOptions {
  /** Atrium's data folder (ATRIUM_HOME, else the OS app-data folder). */
  home: string;
  /** A servers file to use instead of the stored one; it is read, never written. */
  configPath?: string;
  /** Folders exposed to servers as roots. */
  roots?: string[];
  /** Start only these servers (the CLI's one-server commands); every configured server otherwise. */
  onlyServers?: readonly string[];
  sampling?: SamplingBroker;
  elicitation?: ElicitationBroker;
  restartPolicy?: RestartPolicy;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  keepAliveMs?: number;
  /** The largest single message read from a stdio server (default 256 MiB); a server's config may override it. */
  maxMessageBytes?: number;
}

export interface HostCore {
  readonly api: AtriumApi;
  readonly events: EventBus;
  readonly hub: McpHub;
  readonly configProblems: ConfigProblem[];
  readonly configPath: string;
  /** Stops every server (no child process left behind) and ends remote sessions. */
  shutdown(): Promise<void>;
}

export const ATRIUM_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function startHostCore(options: HostCoreOptions): Promise<HostCore> {
  const events = new EventBus();
  const roots = new RootsStore();
  if (options.roots?.length) await roots.set(options.roots.map((path) => ({ uri: path })));

  const configPath = options.configPath ?? serversFilePath(options.home);
  const registry = await ServerRegistry.load(configPath, options.configPath === undefined);
  const hub = new McpHub(
    {
      clientInfo: { name: 'Atrium', version: ATRIUM_VERSION },
      roots,
      sampling: options.sampling ?? refuseSampling,
      elicitation: withElicitationDefaults(options.elicitation ?? declineElicitation),
      validator: new CachedSchemaValidator(),
      ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
      ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
      ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
    },
    (event, payload) => events.emit(event, payload),
  );
  roots.onChange((list) => {
    events.emit('rootsChanged', list);
    void hub.notifyRootsChanged();
  });
  const wanted = options.onlyServers;
  hub.add(wanted ? registry.all().filter((definition) => wanted.includes(definition.id)) : registry.all());

  let stopping: Promise<void> | undefined;
  return {
    api: createAtriumApi({ hub, registry, roots, events }),
    events,
    hub,
    configProblems: registry.problems,
    configPath,
    shutdown: () => (stopping ??= hub.stopAll()),
  };
}
