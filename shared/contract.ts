// The one contract between the renderer and the host. Every request the renderer may make and every
// event the host pushes is declared here, with a JSON Schema for each request's params: the renderer
// is untrusted, so main validates every payload against these schemas (main/api/validateRequest.ts)
// before it reaches the implementation. The Electron preload and the browser bridge both derive their
// surface from `requestNames` / `eventNames`; no channel string exists anywhere else.

import type {
  ChatTurnEvent,
  ConfigProblem,
  DataFileProblem,
  LogLine,
  ProgressUpdate,
  PromptSummary,
  ResourceSummary,
  ResourceTemplateSummary,
  RootEntry,
  AuditEntry,
  Grant,
  ServerId,
  ServerSnapshot,
  SignOutReport,
  StoredServerEntry,
  LaunchReview,
  ToolSearchHit,
  ToolsInUse,
  ToolSummary,
  WorkspaceView,
} from './domain.ts';
import { logLevels } from './domain.ts';
import type { Conversation, StoredMessage, ToolCallRecord } from './conversation.ts';
import type { ExtendedJSONSchema, FromExtendedSchema } from 'json-schema-to-ts';
// The MCP results the API passes on as the server sent them (checked by the SDK; untrusted text).
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { FieldProblem } from './fieldProblems.ts';
import type { PendingRequestView } from './pendingPayloads.ts';
import type { ToolViewDocument, ViewContextEntry, ViewTrust } from './viewSandbox.ts';
import { pendingAnswerSchema } from './pendingPayloads.ts';
import { viewPermissions } from './viewSandbox.ts';

export type { CallToolResult, FieldProblem, GetPromptResult, ReadResourceResult };

/** A JSON object that came from an MCP server: untrusted data, shown as text, never as markup. */
export type JsonObject = { [key: string]: unknown };

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export interface CompletionReference {
  type: 'ref/prompt' | 'ref/resource';
  /** The prompt's name for `ref/prompt`, the template's URI for `ref/resource`. */
  name: string;
}

export interface CompletionAnswer {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * What each request resolves with. Its params are defined once, as the JSON Schema main validates them
 * against (`requestParamSchemas`, below); their type is derived from it (`RequestParams`).
 */
export interface AtriumResults {
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
  listTools: ToolSummary[];
  /**
   * The tools the model's tool search finds for a query, ranked exactly as the model would get them (over the
   * tools it may be offered: not withheld, not for a view only), best first.
   */
  searchTools: ToolSearchHit[];
  /**
   * What the model gets of the tools in a conversation (a new one without `conversationId`): all of them,
   * or the search and what it has without searching (always loaded, loaded by a search, a call or by hand), each with why.
   */
  toolsInUse: ToolsInUse;
  /** Loads a tool into a conversation by hand, so the model has it without searching; or unloads it. */
  setToolLoaded: null;
  /**
   * Approves a tool's changed definition, the one whose fingerprint (`changed.fingerprint` from listTools)
   * the person saw beside the old one: the tool is offered to the model again. Fails when the tool changed
   * again meanwhile.
   */
  approveToolChange: null;
  /** Turns one tool (or, without `tool`, all of a server's tools) on or off for the model. */
  setToolEnabled: null;
  /** Keeps one tool (or, without `tool`, all of a server's tools) always sent to the model, even when it searches for the rest; or lets it go. */
  setToolAlwaysLoaded: null;
  listResources: ResourceSummary[];
  listResourceTemplates: ResourceTemplateSummary[];
  listPrompts: PromptSummary[];
  callTool: CallToolResult;
  /**
   * MCP Apps: a tool's view, read from its server (the `ui://` resource its `_meta.ui.resourceUri` names)
   * with what it declares it may reach, cleaned, for the window to show in the view sandbox.
   */
  openToolView: ToolViewDocument;
  /**
   * MCP Apps: a view asks to call a tool of its own server. It goes through the consent gate as a model's
   * call does (the dialog says the view asks); only the view's own server, and only tools declared for the
   * view (visibility "app", or no visibility). Its result goes back to the view, not to the model.
   */
  callToolFromView: CallToolResult;
  /**
   * MCP Apps: a view tells the model something (`ui/update-model-context`): it replaces what that view said
   * before and goes to the model with every turn of the conversation, said to be the view's word. The
   * text as kept (cleaned, capped) comes back.
   */
  setViewContext: { kept: string };
  /** What the views of a conversation told the model, each view's latest. */
  listViewContext: ViewContextEntry[];
  /** What the person chose for servers' views: shown without asking, permissions (one server's, with `serverId`). */
  listViewTrust: ViewTrust[];
  /** "Always show views from this server", or its revocation. */
  setViewTrust: null;
  /** Lets a server's views use a browser permission they ask for (camera, microphone, …), or stops it. */
  setViewPermission: null;
  cancelCall: null;
  readResource: ReadResourceResult;
  subscribeResource: null;
  unsubscribeResource: null;
  getPrompt: GetPromptResult;
  complete: CompletionAnswer;
  /** The roots servers see now: the active workspace's (and any given for this run only). */
  listRoots: RootEntry[];
  /** Replaces the active workspace's roots. */
  setRoots: RootEntry[];
  /** Which front end the window runs in and what it can do beyond the contract (the native folder picker). */
  getHostInfo: HostInfo;
  /**
   * Opens the system's folder picker (the desktop app only) and resolves with the folders the person
   * chose, as paths; empty when they cancelled. The browser has none: it fails, and a path is typed.
   */
  pickFolders: string[];
  listWorkspaces: WorkspaceView[];
  createWorkspace: WorkspaceView;
  setWorkspaceRoots: WorkspaceView;
  /** Makes the workspace active: its roots go to every server that asked for roots. */
  activateWorkspace: WorkspaceView;
  renameWorkspace: WorkspaceView;
  deleteWorkspace: null;
  listConversations: ConversationSummary[];
  getConversation: ConversationDetail;
  renameConversation: null;
  deleteConversation: null;
  exportConversation: string;
  /** Sends the person's message (with any resources they attached, read when sent) and resolves when the turn ends. */
  sendMessage: { conversationId: string; stopReason: string };
  /** Providers (with whether each has a key, never the key), the default model, the tool-count threshold, the approval choices. */
  getSettings: ProviderSettingsView;
  /**
   * Adds or replaces a provider; a key given is stored encrypted and is never sent back. Where the key
   * store is weak (`keyStorageWarning` with `canStoreKeys`), a key is stored only with `acceptWeakKeyStorage`.
   */
  saveProvider: null;
  removeProvider: null;
  /** Saves what is given: the default model, the tool-count threshold, how tool calls and sampling requests are approved. */
  saveDefaults: null;
  /** The configured LLM providers and their models, for the model picker. */
  listProviders: ProviderView[];
  /** Runs a server's prompt as a slash command: its expansion is sent as the person's message, marked as from that prompt. */
  runPrompt: { conversationId: string; stopReason: string };
  cancelTurn: null;
  listPending: PendingRequestView[];
  respondPending: null;
  /**
   * Takes a pending request back unanswered, for a front end that cannot ask anyone (a terminal without
   * input): the model or the server hears that no one could be asked, which is not a person's "no".
   */
  withdrawPending: null;
  listGrants: Grant[];
  revokeGrant: null;
  listAudit: AuditEntry[];
}

export interface ProviderSettingsView {
  providers: { id: string; kind: ProviderKind; baseUrl?: string; models?: string[]; imageGeneration?: boolean; hasKey: boolean }[];
  default?: { provider: string; model: string };
  toolThreshold?: number;
  /** The share of the model's context (percent) tool definitions may take before the model searches for tools (default 10). */
  toolContextPercent?: number;
  /** The choices saved in Settings, or the defaults where none was saved. */
  approvals: ApprovalChoices;
  /** Whether keys entered here can be kept (encrypted); else they come from the environment. */
  canStoreKeys: boolean;
  /**
   * Why keys kept here are not well protected (no usable OS keychain), for the person to read before
   * choosing; with `canStoreKeys`, a key is then stored only if they accept it.
   */
  keyStorageWarning?: string;
}

export interface HostInfo {
  /** The desktop app, the browser mode, or a front end without a window (the CLI). */
  frontEnd: 'electron' | 'browser' | 'headless';
  /** The system's folder picker is there (`pickFolders`). */
  canPickFolders: boolean;
  /**
   * Where MCP Apps views are shown: the view sandbox's relay page, on an origin of its own. Absent when
   * this front end has none (the CLI): a view is then named, not shown.
   */
  viewSandbox?: string;
}

/**
 * The APIs a provider can speak: 'anthropic' (Messages), 'openai' (Chat Completions), 'openai-compatible'
 * (Chat Completions at a base URL: Ollama, llama.cpp, LM Studio, vLLM), 'openai-responses' (Responses, images out).
 */
export const providerKinds = ['anthropic', 'openai', 'openai-compatible', 'openai-responses'] as const;
export type ProviderKind = (typeof providerKinds)[number];

/**
 * How tool calls are approved when no saved permission decides: 'ask' unless a trusted server marks the
 * tool read-only (the annotation policy), 'ask-every' call, or deny every one ('none'). Allowing every call
 * without asking is not a saved choice: the CLI's `--approve all` does it for one run.
 */
export const toolApprovalChoices = ['ask', 'ask-every', 'none'] as const;
export type ToolApprovalChoice = (typeof toolApprovalChoices)[number];
/** Servers' sampling requests: 'ask' the person each time, or 'deny' (refuse) every one. */
export const samplingChoices = ['ask', 'deny'] as const;
export type SamplingChoice = (typeof samplingChoices)[number];

export interface ApprovalChoices {
  tools: ToolApprovalChoice;
  sampling: SamplingChoice;
}

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

export interface ProviderView {
  id: string;
  kind: ProviderKind;
  models: string[];
  /** The model a message to this provider uses when none is picked (absent only when it offers none). */
  defaultModel?: string;
  /** Set on the provider a new conversation uses. */
  isDefault?: true;
  /** Why the models could not be listed; the configured ones are shown instead. */
  error?: string;
}

export interface ConversationSummary extends Conversation {
  /** A turn runs in it now: a window that missed a turn's end while its link was down learns it here. */
  running?: true;
}

/** A conversation with its messages and tool calls, as saved; server-provided text in it is untrusted. */
export interface ConversationDetail {
  conversation: ConversationSummary;
  messages: StoredMessage[];
  toolCalls: ToolCallRecord[];
}

export interface AtriumEvents {
  serverChanged: ServerSnapshot;
  serverRemoved: { serverId: ServerId };
  listChanged: { serverId: ServerId; list: ListKind };
  log: LogLine;
  progress: ProgressUpdate;
  resourceUpdated: { serverId: ServerId; uri: string };
  rootsChanged: RootEntry[];
  workspacesChanged: WorkspaceView[];
  configProblems: ConfigProblem[];
  dataFileProblems: DataFileProblem[];
  chatEvent: { conversationId: string; event: ChatTurnEvent };
  pendingOpened: PendingRequestView;
  pendingClosed: { id: string; how: 'settled' | 'withdrawn'; reason?: string };
  /** The settings as saved now: providers (with whether each has a key), the default model, the approval choices. */
  settingsChanged: ProviderSettingsView;
  /** MCP Apps: what the person chose for servers' views (shown without asking, permissions), as it is now. */
  viewTrustChanged: ViewTrust[];
  /** A server's tools as Atrium shows them changed (listed again, turned on or off, a change approved): list them again. */
  toolsChanged: { serverId: ServerId };
  /** What a conversation has loaded without searching changed (found, called, loaded or unloaded by hand): read it again (`toolsInUse`). */
  toolsLoadedChanged: { conversationId: string };
}

export type RequestName = keyof AtriumResults;
export type EventName = keyof AtriumEvents;
/**
 * A request's params schema: JSON Schema, plus `patternHint` — what a pattern asks for, in words, so a
 * typed value that does not fit says so in the form's words (main/api/validateRequest.ts).
 */
type ParamsSchema = ExtendedJSONSchema<{ patternHint: string }>;
/** A request's params, as its schema says (json-schema-to-ts derives the type from the schema itself). */
export type RequestParams<K extends RequestName> = FromExtendedSchema<{ patternHint: string }, (typeof requestParamSchemas)[K]>;
export type RequestResult<K extends RequestName> = AtriumResults[K];

/** The API as the renderer calls it, and as main implements it (with `satisfies`). */
export type AtriumApi = { [K in RequestName]: (params: RequestParams<K>) => Promise<RequestResult<K>> };

export type EventListener<K extends EventName> = (payload: AtriumEvents[K]) => void;

/** What the renderer receives: the requests plus one typed subscription point. */
export interface AtriumClientApi extends AtriumApi {
  on<K extends EventName>(event: K, listener: EventListener<K>): () => void;
}

const serverId = { type: 'string', minLength: 1, maxLength: 200 } as const;
// Fields a person types into a form carry their label (`title`) and, for a pattern, what it asks for
// (`patternHint`), so a request that does not fit says so in the form's words (validateRequest.ts).
/** A name typed in the server editor: an empty one is reported by saveServer with the form's other problems. */
const typedServerName = { type: 'string', maxLength: 200, title: 'Name' } as const;
const shortText = { type: 'string', maxLength: 10_000 } as const;
const noParams = { type: 'object', additionalProperties: false, properties: {} } as const;
const serverFilter = { type: 'object', additionalProperties: false, properties: { serverId } } as const;
const serverAndUri = {
  type: 'object',
  additionalProperties: false,
  required: ['serverId', 'uri'],
  properties: { serverId, uri: { type: 'string', minLength: 1, maxLength: 65_536 } },
} as const;
const conversationId = { type: 'string', minLength: 1, maxLength: 100 } as const;
/** One tool of one server (MCP Apps: the tool a view belongs to). */
const serverAndTool = {
  type: 'object',
  additionalProperties: false,
  required: ['serverId', 'tool'],
  properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 } },
} as const;
const workspaceId = { type: 'string', minLength: 1, maxLength: 100 } as const;
const workspaceName = { type: 'string', minLength: 1, maxLength: 100 } as const;
const rootList = {
  type: 'array',
  maxItems: 256,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['uri'],
    properties: { uri: { type: 'string', minLength: 1, maxLength: 4096 }, name: { type: 'string', maxLength: 256 } },
  },
} as const;
const conversationOnly = { type: 'object', additionalProperties: false, required: ['conversationId'], properties: { conversationId } } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string', maxLength: 1_000_000 } } as const;
const pastedText = { type: 'string', maxLength: 1_000_000 } as const;

/** JSON Schemas of every request's params: the runtime half of the contract. */
export const requestParamSchemas = {
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
  listTools: serverFilter,
  searchTools: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: { query: { type: 'string', minLength: 1, maxLength: 2_000 }, limit: { type: 'integer', minimum: 1, maximum: 20 } },
  },
  toolsInUse: { type: 'object', additionalProperties: false, properties: { conversationId } },
  setToolLoaded: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'modelName', 'loaded'],
    properties: { conversationId, modelName: { type: 'string', minLength: 1, maxLength: 200 }, loaded: { type: 'boolean' } },
  },
  approveToolChange: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'tool', 'fingerprint'],
    properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 }, fingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
  },
  setToolEnabled: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'enabled'],
    properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 }, enabled: { type: 'boolean' } },
  },
  setToolAlwaysLoaded: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'alwaysLoaded'],
    properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 }, alwaysLoaded: { type: 'boolean' } },
  },
  listResources: serverFilter,
  listResourceTemplates: serverFilter,
  listPrompts: serverFilter,
  callTool: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'tool'],
    properties: {
      serverId,
      tool: { type: 'string', minLength: 1, maxLength: 512 },
      arguments: { type: 'object' },
      callId: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  openToolView: serverAndTool,
  callToolFromView: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'viewOf', 'tool'],
    properties: {
      conversationId,
      /** The tool whose view asks (its server is the only one the view may call). */
      viewOf: serverAndTool,
      tool: { type: 'string', minLength: 1, maxLength: 512 },
      arguments: { type: 'object' },
      callId: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  setViewContext: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'callId', 'viewOf', 'text'],
    properties: {
      conversationId,
      callId: { type: 'string', minLength: 1, maxLength: 200 },
      viewOf: serverAndTool,
      text: { type: 'string', maxLength: 1_000_000 },
    },
  },
  listViewContext: { type: 'object', additionalProperties: false, required: ['conversationId'], properties: { conversationId } },
  listViewTrust: serverFilter,
  setViewTrust: { type: 'object', additionalProperties: false, required: ['serverId', 'trusted'], properties: { serverId, trusted: { type: 'boolean' } } },
  setViewPermission: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'permission', 'allowed'],
    properties: { serverId, permission: { enum: viewPermissions }, allowed: { type: 'boolean' } },
  },
  cancelCall: {
    type: 'object',
    additionalProperties: false,
    required: ['callId'],
    properties: { callId: { type: 'string', minLength: 1, maxLength: 200 } },
  },
  readResource: serverAndUri,
  subscribeResource: serverAndUri,
  unsubscribeResource: serverAndUri,
  getPrompt: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'name'],
    properties: { serverId, name: { type: 'string', minLength: 1, maxLength: 512 }, arguments: stringMap },
  },
  complete: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'ref', 'argument'],
    properties: {
      serverId,
      ref: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'name'],
        properties: { type: { enum: ['ref/prompt', 'ref/resource'] }, name: shortText },
      },
      argument: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'value'],
        properties: { name: shortText, value: shortText },
      },
      context: stringMap,
    },
  },
  listConversations: {
    type: 'object',
    additionalProperties: false,
    properties: { search: { type: 'string', maxLength: 1000 }, limit: { type: 'integer', minimum: 1, maximum: 10_000 } },
  },
  getConversation: conversationOnly,
  renameConversation: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'title'],
    properties: { conversationId, title: { type: 'string', minLength: 1, maxLength: 500 } },
  },
  deleteConversation: conversationOnly,
  exportConversation: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'format'],
    properties: { conversationId, format: { enum: ['markdown', 'json'] } },
  },
  sendMessage: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      conversationId,
      text: { type: 'string', minLength: 1, maxLength: 1_000_000 },
      provider: { type: 'string', minLength: 1, maxLength: 100 },
      model: { type: 'string', minLength: 1, maxLength: 200 },
      files: {
        type: 'array',
        maxItems: 10,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'mimeType', 'data'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 255 },
            mimeType: { type: 'string', maxLength: 100 },
            // Base64 of at most 10 MB.
            data: { type: 'string', maxLength: 14_000_000, pattern: '^[A-Za-z0-9+/]*={0,2}$' },
          },
        },
      },
      resources: {
        type: 'array',
        maxItems: 20,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['serverId', 'uri'],
          properties: { serverId, uri: { type: 'string', minLength: 1, maxLength: 65_536 } },
        },
      },
    },
  },
  getSettings: noParams,
  saveProvider: {
    type: 'object',
    additionalProperties: false,
    required: ['provider'],
    properties: {
      provider: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'kind'],
        properties: {
          id: {
            type: 'string',
            title: 'Name',
            minLength: 1,
            pattern: '^[a-z0-9][a-z0-9-]{0,39}$',
            patternHint: 'may use only lowercase letters, digits and dashes, starting with a letter or digit, up to 40 characters (for example "claude" or "local-llm")',
          },
          kind: { enum: providerKinds, title: 'API' },
          baseUrl: { type: 'string', title: 'Base URL', pattern: '^https?://', patternHint: 'must start with http:// or https:// (for example http://127.0.0.1:11434/v1)', maxLength: 500 },
          models: { type: 'array', title: 'Models', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 200 } },
          imageGeneration: { type: 'boolean' },
        },
      },
      key: { type: 'string', title: 'API key', minLength: 1, maxLength: 1000 },
      acceptWeakKeyStorage: { type: 'boolean' },
    },
  },
  removeProvider: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
  saveDefaults: {
    type: 'object',
    additionalProperties: false,
    properties: {
      default: {
        type: 'object',
        additionalProperties: false,
        required: ['provider', 'model'],
        properties: { provider: { type: 'string', minLength: 1, maxLength: 100 }, model: { type: 'string', minLength: 1, maxLength: 200 } },
      },
      toolThreshold: { type: 'integer', minimum: 1, maximum: 10_000 },
      toolContextPercent: { type: 'integer', minimum: 1, maximum: 100 },
      approvals: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { tools: { enum: toolApprovalChoices }, sampling: { enum: samplingChoices } },
      },
    },
  },
  listProviders: noParams,
  runPrompt: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'name'],
    properties: {
      conversationId,
      serverId,
      name: { type: 'string', minLength: 1, maxLength: 512 },
      arguments: stringMap,
      provider: { type: 'string', minLength: 1, maxLength: 100 },
      model: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  cancelTurn: conversationOnly,
  listPending: noParams,
  respondPending: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'outcome'],
    properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, outcome: pendingAnswerSchema },
  },
  withdrawPending: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'reason'],
    properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, reason: { type: 'string', minLength: 1, maxLength: 500 } },
  },
  listGrants: serverFilter,
  revokeGrant: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
  listAudit: {
    type: 'object',
    additionalProperties: false,
    properties: { serverId, limit: { type: 'integer', minimum: 1, maximum: 10_000 } },
  },
  listRoots: noParams,
  setRoots: { type: 'object', additionalProperties: false, required: ['roots'], properties: { roots: rootList } },
  getHostInfo: noParams,
  pickFolders: noParams,
  listWorkspaces: noParams,
  createWorkspace: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: workspaceName, roots: rootList } },
  setWorkspaceRoots: { type: 'object', additionalProperties: false, required: ['workspaceId', 'roots'], properties: { workspaceId, roots: rootList } },
  activateWorkspace: { type: 'object', additionalProperties: false, required: ['workspaceId'], properties: { workspaceId } },
  renameWorkspace: { type: 'object', additionalProperties: false, required: ['workspaceId', 'name'], properties: { workspaceId, name: workspaceName } },
  deleteWorkspace: { type: 'object', additionalProperties: false, required: ['workspaceId'], properties: { workspaceId } },
} as const satisfies { readonly [K in RequestName]: ParamsSchema };

export const requestNames = Object.keys(requestParamSchemas) as RequestName[];

// A record rather than a list so that adding an event to AtriumEvents without listing it here fails
// the type-check.
const eventNameSet: { readonly [K in EventName]: true } = {
  serverChanged: true,
  serverRemoved: true,
  listChanged: true,
  log: true,
  progress: true,
  resourceUpdated: true,
  rootsChanged: true,
  workspacesChanged: true,
  configProblems: true,
  dataFileProblems: true,
  chatEvent: true,
  pendingOpened: true,
  pendingClosed: true,
  settingsChanged: true,
  viewTrustChanged: true,
  toolsChanged: true,
  toolsLoadedChanged: true,
};
export const eventNames = Object.keys(eventNameSet) as EventName[];

/** An error a front end can show as-is: `message` is written for a person, never a stack trace. */
export interface ApiErrorShape {
  /** `unauthorized`: a remote server needs the person to sign in (again); `signIn` does it. */
  code: 'invalid_params' | 'unknown_method' | 'not_found' | 'server_unavailable' | 'unauthorized' | 'timeout' | 'cancelled' | 'failed';
  message: string;
  /** With `invalid_params` from a form: every field that is wrong, to show beside it (`message` joins them). */
  fields?: FieldProblem[];
}
