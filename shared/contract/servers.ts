// The contract's section for servers: what is configured, how each runs, its log, its sign-in, and adding, editing and starting one.
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { ConfigProblem, DataFileProblem, LogLine, ServerId, ServerSnapshot, SignOutReport, StoredServerEntry, LaunchReview } from '../domain.ts';
import { logLevels } from '../domain.ts';
import type { ParamsSchema } from './schemaParts.ts';
import { serverId, typedServerName, noParams, pastedText } from './schemaParts.ts';

/** A server found in another host's config or in pasted text; `alreadyAs` names the Atrium server that already runs exactly it. */
export interface OfferedServer {
  id: string;
  transport: string;
  target: string;
  alreadyAs?: string;
}

export interface SetupDiscovery {
  configs: { app: string; path: string; servers: OfferedServer[]; problems: string[] }[];
  modelServers: { name: string; baseUrl: string; models: string[] }[];
  hasProviders: boolean;
  hasServers: boolean;
  /** The name Atrium's sample server has here, once it was added. */
  sampleServerId?: string;
}

export interface ServerConfigPreview {
  /** Why nothing could be read (not JSON, with its line and column, or no server in it). */
  error?: string;
  servers: OfferedServer[];
  /** Entries that were found but cannot be used, each naming its server. */
  problems: string[];
}

/** What each request of this section resolves with; its params are its schema's (`serversRequests`). */
export interface ServersResults {
  listServers: ServerSnapshot[];
  listConfigProblems: ConfigProblem[];
  /** The data-folder files found damaged in this run: each moved aside, and how to recover it. */
  listDataFileProblems: DataFileProblem[];
  restartServer: null;
  /**
   * Signs in to a remote server that uses OAuth: its authorization page is opened (the desktop app opens
   * the system browser; in the browser mode the window opens `auth.signInUrl` of the server's snapshot,
   * which `serverChanged` carries as soon as the page is ready). Resolves with the server once it is
   * signed in and connected; fails with a sentence saying why.
   */
  signIn: ServerSnapshot;
  /**
   * Stops the sign-in under way for the server, if any: its loopback redirect closes, so a page that
   * answers later is refused, and the pending `signIn` fails. Resolves with the server once the sign-in
   * has ended (signed out, or still signed in with what it had, when this was a sign-in again).
   */
  cancelSignIn: ServerSnapshot;
  /** Revokes the server's tokens where its authorization server allows, forgets them, and disconnects it; says what was revoked. */
  signOut: { server: ServerSnapshot; report: SignOutReport };
  /** What the person already has: other hosts' MCP configs and a local model server, for the first run. */
  discoverSetup: SetupDiscovery;
  /** Imports the chosen servers of one discovered config file, each trusted or not as the person chose; they start. */
  importServers: ServerSnapshot[];
  /**
   * Adds Atrium's built-in sample server, trusted (it is Atrium's own: its tool annotations are honest),
   * saved off: the person starts it after seeing its command line. When Atrium already has it (under any
   * name), nothing is added and `added` is false.
   */
  addSampleServer: { server: ServerSnapshot; added: boolean };
  /** The servers a pasted JSON block (or a chosen file's text) holds, each with its command line, to check before adding. */
  previewServerConfig: ServerConfigPreview;
  /**
   * Adds the chosen servers (by name, as the preview gave them) of a pasted block: not trusted and off,
   * each starts once the person approved its command line. One Atrium already has is not added again.
   */
  addPastedServers: ServerSnapshot[];
  /** Makes a discovered local model server a provider (and the default when there is none). */
  useModelServer: null;
  /** A server's entry as servers.json holds it, for editing. */
  getServerConfig: StoredServerEntry;
  /**
   * Adds a server (or edits the one `replaces` names, renaming it when the names differ) from an entry in
   * servers.json's shape. A new server, or one whose command line, environment or address changed, is
   * saved disabled: the person starts it after seeing exactly what will run.
   */
  saveServer: ServerSnapshot;
  removeServer: null;
  setServerEnabled: null;
  /** What starting a server runs or contacts, what was approved before, and the risky shapes found in it. */
  reviewServerLaunch: LaunchReview;
  /**
   * The person approves the definition they were shown (named by its hash; refused when it changed since)
   * and the server starts — unless `start` is false (the CLI's `servers approve`): then only the approval
   * is kept, and the server starts when it next would.
   */
  approveServerLaunch: ServerSnapshot;
  getServerLog: LogLine[];
  setServerLogLevel: null;
}

export interface ServersEvents {
  serverChanged: ServerSnapshot;
  serverRemoved: { serverId: ServerId };
  log: LogLine;
  configProblems: ConfigProblem[];
  dataFileProblems: DataFileProblem[];
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const serversRequests = {
  listServers: noParams,
  listConfigProblems: noParams,
  listDataFileProblems: noParams,
  restartServer: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  signIn: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  cancelSignIn: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  signOut: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  discoverSetup: noParams,
  importServers: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'servers'],
    properties: {
      path: { type: 'string', minLength: 1, maxLength: 4096 },
      servers: {
        type: 'array',
        maxItems: 200,
        items: { type: 'object', additionalProperties: false, required: ['id', 'trusted'], properties: { id: serverId, trusted: { type: 'boolean' } } },
      },
    },
  },
  addSampleServer: noParams,
  previewServerConfig: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: pastedText } },
  addPastedServers: {
    type: 'object',
    additionalProperties: false,
    required: ['text', 'servers'],
    properties: { text: pastedText, servers: { type: 'array', minItems: 1, maxItems: 200, items: serverId } },
  },
  useModelServer: { type: 'object', additionalProperties: false, required: ['baseUrl'], properties: { baseUrl: { type: 'string', minLength: 1, maxLength: 200 } } },
  getServerConfig: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  saveServer: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'entry'],
    properties: { serverId: typedServerName, entry: { type: 'object', maxProperties: 50 }, replaces: serverId },
  },
  removeServer: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  setServerEnabled: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'enabled'],
    properties: { serverId, enabled: { type: 'boolean' } },
  },
  reviewServerLaunch: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  approveServerLaunch: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'hash'],
    properties: { serverId, hash: { type: 'string', pattern: '^[0-9a-f]{64}$' }, start: { type: 'boolean' } },
  },
  getServerLog: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId'],
    properties: { serverId, limit: { type: 'integer', minimum: 1, maximum: 100_000 } },
  },
  setServerLogLevel: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'level'],
    properties: { serverId, level: { enum: logLevels } },
  },
} as const satisfies { readonly [K in keyof ServersResults]: ParamsSchema };

/** A record rather than a list, so an event added to ServersEvents but not here fails the type-check. */
export const serversEvents: { readonly [K in keyof ServersEvents]: true } = {
  serverChanged: true,
  serverRemoved: true,
  log: true,
  configProblems: true,
  dataFileProblems: true,
};
