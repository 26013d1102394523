// The one contract between the renderer and the host, assembled from its sections: every request the
// renderer may make and every event the host pushes, each request with a JSON Schema for its params. The
// renderer is untrusted, so main validates every payload against these schemas (main/api/validateRequest.ts)
// before it reaches the implementation. The Electron preload and the browser bridge both derive their
// surface from `requestNames` / `eventNames`; no channel string exists anywhere else.
//
// Each area has a section in shared/contract/ (its requests' results and schemas, its events); an
// extension has its own in its folder (main/mcp/extensions/NAME/contract/). A section is registered here in
// one place each: its results and events in the two `extends` lists, its schemas and event names below.

import type { FromExtendedSchema } from 'json-schema-to-ts';
import type { AppsEvents, AppsResults } from '../main/mcp/extensions/apps/contract/appsContract.ts';
import { appsEvents, appsRequests } from '../main/mcp/extensions/apps/contract/appsContract.ts';
import type { TasksEvents, TasksResults } from '../main/mcp/extensions/tasks/contract/tasksContract.ts';
import { tasksEvents, tasksRequests } from '../main/mcp/extensions/tasks/contract/tasksContract.ts';
import type { SkillsEvents, SkillsResults } from '../main/mcp/extensions/skills/contract/skillsContract.ts';
import { skillsEvents, skillsRequests } from '../main/mcp/extensions/skills/contract/skillsContract.ts';
import type { SandboxEvents, SandboxResults } from '../main/mcp/extensions/sandbox/contract/sandboxContract.ts';
import { sandboxEvents, sandboxRequests } from '../main/mcp/extensions/sandbox/contract/sandboxContract.ts';
import type { ConversationsEvents, ConversationsResults } from './contract/conversations.ts';
import type { InstallsEvents, InstallsResults } from './contract/installs.ts';
import { installsEvents, installsRequests } from './contract/installs.ts';
import { conversationsEvents, conversationsRequests } from './contract/conversations.ts';
import type { ServerOffersEvents, ServerOffersResults } from './contract/serverOffers.ts';
import { serverOffersEvents, serverOffersRequests } from './contract/serverOffers.ts';
import type { ServersEvents, ServersResults } from './contract/servers.ts';
import { serversEvents, serversRequests } from './contract/servers.ts';
import type { SettingsEvents, SettingsResults } from './contract/settings.ts';
import { settingsEvents, settingsRequests } from './contract/settings.ts';
import type { ToolsEvents, ToolsResults } from './contract/tools.ts';
import { toolsEvents, toolsRequests } from './contract/tools.ts';
import type { TraceEvents, TraceResults } from './contract/trace.ts';
import { traceEvents, traceRequests } from './contract/trace.ts';
import type { WorkspacesEvents, WorkspacesResults } from './contract/workspaces.ts';
import { workspacesEvents, workspacesRequests } from './contract/workspaces.ts';
import type { FieldProblem } from './fieldProblems.ts';

// What the sections define that the rest of Atrium names: imported from here, wherever it lives.
export type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
export type { FieldProblem };
export type { ConversationDetail, ConversationSummary, Draft } from './contract/conversations.ts';
export type { CompletionAnswer, CompletionReference, ListKind } from './contract/serverOffers.ts';
export type { OfferedServer, ServerConfigPreview, SetupDiscovery } from './contract/servers.ts';
export type { ApprovalChoices, ConfiguredProviderView, ProviderCheck, ProviderEdit, ProviderKind, ProviderSettingsView, ProviderView, SamplingChoice, ToolApprovalChoice } from './contract/settings.ts';
export { providerKinds, samplingChoices, toolApprovalChoices } from './contract/settings.ts';
export type { HostInfo } from './contract/workspaces.ts';
export type { TraceDirection, TraceKind, TraceLimits, TraceLink, TraceMessage, TraceMessageDetail, TraceWatch } from './contract/trace.ts';
export { UNANSWERED_WORDS } from './contract/trace.ts';
export type { TaskStatus, TaskView } from '../main/mcp/extensions/tasks/contract/tasksContract.ts';
export type { ServerSkillList, ShownSkill, SkillSummary } from '../main/mcp/extensions/skills/contract/skillViews.ts';

/** A JSON object that came from an MCP server: untrusted data, shown as text, never as markup. */
export type JsonObject = { [key: string]: unknown };

/** What each request resolves with. Its params are defined once, as the JSON Schema main validates them against. */
export interface AtriumResults extends ServersResults, InstallsResults, ToolsResults, ServerOffersResults, WorkspacesResults, ConversationsResults, SettingsResults, TraceResults, AppsResults, TasksResults, SkillsResults, SandboxResults {}

export interface AtriumEvents extends ServersEvents, InstallsEvents, ToolsEvents, ServerOffersEvents, WorkspacesEvents, ConversationsEvents, SettingsEvents, TraceEvents, AppsEvents, TasksEvents, SkillsEvents, SandboxEvents {}

/** JSON Schemas of every request's params: the runtime half of the contract. */
export const requestParamSchemas = {
  ...serversRequests,
  ...installsRequests,
  ...toolsRequests,
  ...serverOffersRequests,
  ...workspacesRequests,
  ...conversationsRequests,
  ...settingsRequests,
  ...traceRequests,
  ...appsRequests,
  ...tasksRequests,
  ...skillsRequests,
  ...sandboxRequests,
} as const;

// A record over every event name, so a section's event that is not spread here fails the type-check.
const eventNameSet: { readonly [K in EventName]: true } = {
  ...serversEvents,
  ...installsEvents,
  ...toolsEvents,
  ...serverOffersEvents,
  ...workspacesEvents,
  ...conversationsEvents,
  ...settingsEvents,
  ...traceEvents,
  ...appsEvents,
  ...tasksEvents,
  ...skillsEvents,
  ...sandboxEvents,
};

export type RequestName = keyof AtriumResults;
export type EventName = keyof AtriumEvents;
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

// Every result has a schema and every schema a result: a section that lists one without the other fails here.
const everyRequestHasASchema: { readonly [K in RequestName]: unknown } = requestParamSchemas;
const everySchemaIsARequest: { readonly [K in keyof typeof requestParamSchemas]: K extends RequestName ? unknown : never } = requestParamSchemas;
void everyRequestHasASchema;
void everySchemaIsARequest;

export const requestNames = Object.keys(requestParamSchemas) as RequestName[];
export const eventNames = Object.keys(eventNameSet) as EventName[];

/** An error a front end can show as-is: `message` is written for a person, never a stack trace. */
export interface ApiErrorShape {
  /** `unauthorized`: a remote server needs the person to sign in (again); `signIn` does it. */
  code: 'invalid_params' | 'unknown_method' | 'not_found' | 'server_unavailable' | 'unauthorized' | 'timeout' | 'cancelled' | 'failed';
  message: string;
  /** With `invalid_params` from a form: every field that is wrong, to show beside it (`message` joins them). */
  fields?: FieldProblem[];
  /**
   * The data file (e.g. "servers.json") that could not be read as it was, which is why the change was
   * refused: the refusal holds only until that file reads again (its DataFileProblem goes).
   */
  dataFile?: string;
}
