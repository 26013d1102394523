// The servers file: what a person configured, parsed into one typed definition per server. Two shapes
// are accepted because people already have them: `{"mcpServers": {...}}` (Claude Desktop, Cursor) and
// `{"servers": {...}}` (VS Code, whose entries carry `type`: stdio | http | sse). A bad entry becomes a
// problem naming the server and the field; every other server still loads.

import { isDeepStrictEqual } from 'node:util';
import type { OwnSchemaValidator } from '../../ownSchemas.ts';
import precompiledEntryValidator from './serverEntryValidator.generated.mjs';
import { jsonProblem } from '../../../shared/jsonProblem.ts';
import { entryProblem } from './entryProblem.ts';
import type { ConfigProblem, ServerId, TransportKind } from '../../../shared/domain.ts';
import { nearestWord } from '../../../shared/nearestWord.ts';
import { oauthProblem, oauthSchema, plaintextSecretField } from './oauthConfig.ts';
import type { OAuthServerConfig } from './oauthConfig.ts';
import type { StoredServerEntry } from '../../../shared/domain.ts';
import { hasSecretReference, withoutSecretReferences } from './secretReferences.ts';
import { readSandboxSetting, sandboxSettingSchema } from '../extensions/sandbox/sandboxSetting.ts';
import type { SandboxSetting } from '../extensions/sandbox/sandboxSetting.ts';

interface ServerDefinitionBase {
  id: ServerId;
  disabled: boolean;
  /** The person trusts this server's tool annotations (read-only, destructive, …); untrusted ones always ask. */
  trusted?: boolean;
  /** Tools the person turned off for the model (the server keeps running): some by name, or all of them. */
  disabledTools?: string[] | 'all';
  /** Tools always sent to the model, even when it searches for the others: some by name, or all of them. */
  alwaysLoadedTools?: string[] | 'all';
  /** Per-request timeout; undefined means Atrium's default. */
  requestTimeoutMs?: number;
  /** The largest single message Atrium reads from this server (a line, an answer, an event); undefined means Atrium's default. */
  maxMessageBytes?: number;
  /** Folders it gets as roots besides the workspace's (absolute paths): a bundle's folder settings. */
  roots?: string[];
}

export interface StdioServerDefinition extends ServerDefinitionBase {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** What its sandbox allows beyond the default profile, or `false`: the person runs it without one. Absent: the default. */
  sandbox?: SandboxSetting;
}

export interface RemoteServerDefinition extends ServerDefinitionBase {
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** What the person configured about signing in; discovery finds the rest. */
  oauth?: OAuthServerConfig;
}

export type ServerDefinition = StdioServerDefinition | RemoteServerDefinition;

export interface ParsedServers {
  servers: ServerDefinition[];
  problems: ConfigProblem[];
}

const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;

// One entry, in either shape. Unknown keys are tolerated: other hosts add their own (e.g. Cursor's
// `autoApprove`), and rejecting them would make importing a person's existing file fail for nothing.
// Exported for ownSchemas.test.ts, which checks it against the meta-schema.
export const serverEntrySchema = {
  type: 'object',
  properties: {
    type: { enum: ['stdio', 'http', 'sse', 'streamable-http', 'streamableHttp'] },
    command: { type: 'string', minLength: 1 },
    args: { type: 'array', items: { type: 'string' } },
    env: stringMap,
    cwd: { type: 'string', minLength: 1 },
    url: { type: 'string', minLength: 1 },
    headers: stringMap,
    disabled: { type: 'boolean' },
    trusted: { type: 'boolean' },
    disabledTools: { oneOf: [{ const: 'all' }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
    alwaysLoadedTools: { oneOf: [{ const: 'all' }, { type: 'array', items: { type: 'string', minLength: 1 } }] },
    requestTimeoutMs: { type: 'integer', minimum: 100, maximum: 86_400_000 },
    maxMessageBytes: { type: 'integer', minimum: 1024, maximum: 4 * 1024 ** 3 },
    timeout: { type: 'number', exclusiveMinimum: 0, maximum: 86_400 },
    oauth: oauthSchema,
    roots: { type: 'array', maxItems: 256, items: { type: 'string', minLength: 1, maxLength: 4096 } },
    sandbox: sandboxSettingSchema,
  },
} as const;

/** How an entry is checked: every error found, unknown keys tolerated (see serverEntrySchema). */
export const SERVER_ENTRY_OPTIONS = { allErrors: true, strict: false } as const;
// Compiled ahead of time from serverEntrySchema with these options (scripts/generateOwnValidators.ts):
// servers.json is checked before any server starts, and compiling it then cost more than anything else.
const validateEntry: OwnSchemaValidator = precompiledEntryValidator;

// eslint-disable-next-line no-control-regex -- a server name must not hold control characters.
const serverIdPattern = /^[^\u0000-\u001f]{1,200}$/;

export function parseServersFile(text: string, source: string): ParsedServers {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Said at the mistake itself, in words, never quoting the file (V8's message does both wrong).
    const problem = jsonProblem(Buffer.from(text, 'utf8')) ?? 'it is not JSON';
    return { servers: [], problems: [{ serverId: null, field: '(file)', message: `${source} is not valid JSON: ${problem}`, file: source }] };
  }
  return parseServersDocument(json, source);
}

/** `source` is how messages name the file; `file`, where it is (each problem says, for the window). */
export function parseServersDocument(json: unknown, source: string, file: string = source): ParsedServers {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { servers: [], problems: [{ serverId: null, field: '(file)', message: `${source} must hold a JSON object`, file }] };
  }
  const doc = json as Record<string, unknown>;
  const table = doc.mcpServers ?? doc.servers ?? (isMcpJsonWrapper(doc) ? doc.mcp.servers : undefined);
  if (table === undefined) {
    // A file with no table is no servers; one whose table's key has a slip would lose them all in silence.
    const slip = Object.keys(doc).find((key) => nearestWord(key.toLowerCase(), ['mcpservers']) !== undefined);
    if (slip !== undefined) return { servers: [], problems: [{ serverId: null, field: slip, message: `${source}: "${slip}" is not a key Atrium reads: the servers go under "mcpServers"`, file }] };
    return { servers: [], problems: [] };
  }
  if (typeof table !== 'object' || table === null || Array.isArray(table)) {
    return { servers: [], problems: [{ serverId: null, field: 'mcpServers', message: `${source}: "mcpServers" must be an object of named servers`, file }] };
  }
  const servers: ServerDefinition[] = [];
  const problems: ConfigProblem[] = [];
  for (const [id, entry] of Object.entries(table)) {
    const result = parseServerEntry(id, entry);
    if ('problem' in result) problems.push({ ...result.problem, file });
    else servers.push(result.server);
  }
  return { servers, problems };
}

// VS Code's user settings nest the table as {"mcp": {"servers": {...}}}.
function isMcpJsonWrapper(doc: Record<string, unknown>): doc is { mcp: { servers: unknown } } {
  const mcp = doc.mcp;
  return typeof mcp === 'object' && mcp !== null && 'servers' in mcp;
}

export function parseServerEntry(id: string, entry: unknown): { server: ServerDefinition } | { problem: ConfigProblem } {
  const problem = (field: string, message: string) => ({ problem: { serverId: id, field, message: `server "${id}": ${message}` } });
  if (!serverIdPattern.test(id)) return problem('(name)', 'the name must be 1–200 characters without control characters');
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return problem('(entry)', 'must be an object');
  const plaintext = plaintextSecretField((entry as { oauth?: unknown }).oauth);
  if (plaintext) return problem(plaintext, `"${plaintext}" must name a secret ({"secret": "name"}) kept in Atrium's secret store, not hold it: servers.json is not encrypted`);
  if (!validateEntry(entry)) {
    return problem(...entryProblem(validateEntry.errors ?? []));
  }
  const e = entry as {
    type?: string; command?: string; args?: string[]; env?: Record<string, string>; cwd?: string; sandbox?: unknown;
    url?: string; headers?: Record<string, string>; oauth?: OAuthServerConfig; disabled?: boolean; trusted?: boolean; disabledTools?: string[] | 'all'; alwaysLoadedTools?: string[] | 'all'; requestTimeoutMs?: number; timeout?: number; maxMessageBytes?: number; roots?: string[];
  };
  const base = {
    id,
    disabled: e.disabled ?? false,
    ...(e.trusted ? { trusted: true } : {}),
    ...(e.disabledTools !== undefined && e.disabledTools.length !== 0 ? { disabledTools: e.disabledTools } : {}),
    ...(e.alwaysLoadedTools !== undefined && e.alwaysLoadedTools.length !== 0 ? { alwaysLoadedTools: e.alwaysLoadedTools } : {}),
    // `timeout` in seconds is what Cline and Roo write; Atrium's own key is in milliseconds.
    requestTimeoutMs: e.requestTimeoutMs ?? (e.timeout !== undefined ? Math.round(e.timeout * 1000) : undefined),
    ...(e.maxMessageBytes !== undefined ? { maxMessageBytes: e.maxMessageBytes } : {}),
    ...(e.roots !== undefined && e.roots.length !== 0 ? { roots: e.roots } : {}),
  };
  const kind = transportOf(e);
  // Neither way to reach a server: say both, not "needs url" to someone who misspelt "command".
  if (e.type === undefined && e.command === undefined && e.url === undefined) {
    const typo = misspeltKey(entry, ['command', 'url']);
    return problem(typo?.written ?? 'command', `needs "command" (a program to run) or "url" (a remote server)${typo ? `; "${typo.written}" looks like a misspelt "${typo.meant}"` : ''}`);
  }
  if (kind === 'stdio') {
    if (e.command === undefined) return problem('command', 'a stdio server needs "command"');
    if (e.url !== undefined) return problem('url', 'has both "command" and "url"; keep one');
    if (e.oauth !== undefined) return problem('oauth', '"oauth" is for remote servers (with "url")');
    const sandbox = readSandboxSetting(e.sandbox);
    if ('problem' in sandbox) return problem(...sandbox.problem);
    return {
      server: {
        ...base,
        transport: 'stdio',
        command: e.command,
        args: e.args ?? [],
        env: e.env ?? {},
        ...(e.cwd ? { cwd: e.cwd } : {}),
        ...(sandbox.setting !== undefined ? { sandbox: sandbox.setting } : {}),
      },
    };
  }
  if (e.url === undefined) {
    const typo = misspeltKey(entry, ['url']);
    return problem(typo?.written ?? 'url', `a ${kind} server needs "url"${typo ? `; "${typo.written}" looks like a misspelt "url"` : ''}`);
  }
  if (e.command !== undefined) return problem('command', 'has both "command" and "url"; keep one');
  if (e.sandbox !== undefined) return problem('sandbox', '"sandbox" is for local servers (with "command"): a remote server runs on another machine');
  let url: URL;
  // A secret kept in Atrium's store may be part of the path or query, never of the scheme or host.
  const referred = hasSecretReference(e.url);
  try {
    url = new URL(withoutSecretReferences(e.url));
  } catch {
    return problem('url', `"${e.url}" is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return problem('url', `"${e.url}" must be an http(s) URL`);
  // No request can carry them (fetch refuses such an address), and the address is shown everywhere: said
  // without echoing them.
  if (url.username !== '' || url.password !== '') {
    return problem('url', `the address holds a user name or password (before "@"), which Atrium never sends in an address: give the credential as a header instead, its value kept as a secret ("\${secret:NAME}")`);
  }
  if (referred && !e.url.toLowerCase().startsWith(url.origin.toLowerCase())) return problem('url', 'a secret may be part of the address\'s path or query, not of its host');
  const oauthGap = e.oauth ? oauthProblem(e.oauth) : undefined;
  if (oauthGap) return problem(oauthGap[0], oauthGap[1]);
  return { server: { ...base, transport: kind, url: referred ? e.url : url.href, headers: e.headers ?? {}, ...(e.oauth ? { oauth: e.oauth } : {}) } };
}

/** A key of the entry that is not one it should have but is one or two letters from one of `wanted`. */
function misspeltKey(entry: object, wanted: readonly string[]): { written: string; meant: string } | undefined {
  for (const written of Object.keys(entry)) {
    if (wanted.includes(written)) continue;
    const meant = nearestWord(written.toLowerCase(), wanted);
    if (meant) return { written, meant };
  }
  return undefined;
}

function transportOf(e: { type?: string; command?: string }): TransportKind {
  switch (e.type) {
    case 'sse':
      return 'sse';
    case 'http':
    case 'streamable-http':
    case 'streamableHttp':
      return 'http';
    case 'stdio':
      return 'stdio';
    default:
      return e.command !== undefined ? 'stdio' : 'http';
  }
}

/** The canonical form Atrium writes back: Claude Desktop's shape, so the file stays portable. */
export function toStoredEntry(server: ServerDefinition): StoredServerEntry {
  const common = {
    ...(server.disabled ? { disabled: true as const } : {}),
    ...(server.trusted ? { trusted: true as const } : {}),
    ...(server.disabledTools !== undefined ? { disabledTools: server.disabledTools } : {}),
    ...(server.alwaysLoadedTools !== undefined ? { alwaysLoadedTools: server.alwaysLoadedTools } : {}),
    ...(server.requestTimeoutMs !== undefined ? { requestTimeoutMs: server.requestTimeoutMs } : {}),
    ...(server.maxMessageBytes !== undefined ? { maxMessageBytes: server.maxMessageBytes } : {}),
    ...(server.roots !== undefined ? { roots: server.roots } : {}),
  };
  if (server.transport === 'stdio') {
    return {
      command: server.command,
      args: server.args,
      ...(Object.keys(server.env).length ? { env: server.env } : {}),
      ...(server.cwd ? { cwd: server.cwd } : {}),
      ...(server.sandbox !== undefined ? { sandbox: server.sandbox } : {}),
      ...common,
    };
  }
  return {
    type: server.transport,
    url: server.url,
    ...(Object.keys(server.headers).length ? { headers: server.headers } : {}),
    ...(server.oauth ? { oauth: server.oauth } : {}),
    ...common,
  };
}

/**
 * Whether two definitions run the same server: the same command line or address, environment and
 * headers, whatever their names and whatever the person chose for it since (trust, on/off, tools off).
 */
export function isSameServer(a: ServerDefinition, b: ServerDefinition): boolean {
  return isDeepStrictEqual(launchOf(a), launchOf(b));
}

function launchOf(server: ServerDefinition): unknown {
  const { id: _id, disabled: _disabled, trusted: _trusted, disabledTools: _disabledTools, alwaysLoadedTools: _alwaysLoaded, ...launch } = server;
  // Through JSON, so a key present as undefined and a key left out compare equal.
  return JSON.parse(JSON.stringify(launch));
}

/** How the server will be run or reached, shown to the person exactly. */
export function describeTarget(server: ServerDefinition): string {
  if (server.transport !== 'stdio') return server.url;
  return [server.command, ...server.args].map(quoteForDisplay).join(' ');
}

function quoteForDisplay(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A choice the person makes per tool of a server: some tools by name, or all of them. */
type ToolChoice = 'disabledTools' | 'alwaysLoadedTools';

function chosen(server: Pick<ServerDefinitionBase, ToolChoice> | undefined, choice: ToolChoice, tool: string): boolean {
  const tools = server?.[choice];
  return tools === 'all' || (tools?.includes(tool) ?? false);
}

/** The server's definition with one tool (or, without a tool, all of them) in or out of a choice. */
function withChoice<T extends ServerDefinition>(server: T, choice: ToolChoice, tool: string | undefined, included: boolean): T {
  const previous = server[choice];
  let tools: string[] | 'all' | undefined;
  if (tool === undefined) tools = included ? 'all' : undefined;
  // "All but one" has no way to be written down: leaving one out of all leaves none.
  else if (previous === 'all') tools = included ? 'all' : [];
  else {
    const current = new Set(previous ?? []);
    if (included) current.add(tool);
    else current.delete(tool);
    tools = [...current];
  }
  const next: T = { ...server };
  delete next[choice];
  if (tools === 'all' || (tools && tools.length > 0)) next[choice] = tools;
  return next;
}

/** Whether the person left this tool on for the model. */
export function isToolEnabled(server: Pick<ServerDefinitionBase, 'disabledTools'> | undefined, tool: string): boolean {
  return !chosen(server, 'disabledTools', tool);
}

/** The server's definition with one tool (or, without a tool, all of them) turned on or off. */
export function withToolEnabled<T extends ServerDefinition>(server: T, tool: string | undefined, enabled: boolean): T {
  return withChoice(server, 'disabledTools', tool, !enabled);
}

/** Whether the person chose this tool to be sent to the model always, even when it searches for the rest. */
export function isToolAlwaysLoaded(server: Pick<ServerDefinitionBase, 'alwaysLoadedTools'> | undefined, tool: string): boolean {
  return chosen(server, 'alwaysLoadedTools', tool);
}

/** The server's definition with one tool (or, without a tool, all of them) always loaded, or not. */
export function withToolAlwaysLoaded<T extends ServerDefinition>(server: T, tool: string | undefined, alwaysLoaded: boolean): T {
  return withChoice(server, 'alwaysLoadedTools', tool, alwaysLoaded);
}
