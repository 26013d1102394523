// Serialisable domain types shared by the host (main/) and the renderer. Nothing here may import Node
// or DOM APIs: both sides compile this file.

import type { PolicyBlock, ServerOrigin, ServerReach } from './installs.ts';
import type { SandboxSummary } from '../main/mcp/extensions/sandbox/contract/sandboxContract.ts';

export type { SandboxSummary };

export type { ServerId } from './domain/serverId.ts';
import type { ServerId } from './domain/serverId.ts';

export type TransportKind = 'stdio' | 'http' | 'sse';

/** Which protocol generation a connection negotiated: 2026-07-28 discovery, or a 2025-era initialize. */
export type ProtocolEra = 'modern' | 'legacy';

/** A server's lifecycle as the person sees it. One state at a time, never a set of booleans. */
export type ServerStatus =
  | { kind: 'disabled' }
  /** `lastError`: from the second attempt on, why the one before failed (a start that hangs again says nothing new). */
  | { kind: 'starting'; attempt: number; lastError?: string }
  | { kind: 'ready'; since: number }
  | { kind: 'restarting'; attempt: number; retryAt: number; lastError: string }
  | { kind: 'error'; message: string }
  /** A remote server that needs the person to sign in (again) before it can connect: no restarts until then. */
  | { kind: 'needs-sign-in'; message: string }
  /** Enabled, but its launch definition is new or changed since the person approved one: it does not run until they do. */
  | { kind: 'needs-approval'; reason: 'new' | 'changed' }
  /** An organisation's policy keeps it from starting, whatever the person approves: the rule says which. */
  | { kind: 'blocked'; block: PolicyBlock }
  | { kind: 'stopped' };

export type ServerStatusKind = ServerStatus['kind'];

export function statusLabel(status: ServerStatus): string {
  switch (status.kind) {
    case 'disabled':
      return 'Disabled';
    case 'starting':
      return status.attempt > 1 ? `Starting (attempt ${status.attempt})` : 'Starting';
    case 'ready':
      return 'Ready';
    case 'restarting':
      return `Restarting (attempt ${status.attempt})`;
    case 'error':
      return 'Error';
    case 'needs-sign-in':
      return 'Sign-in needed';
    case 'needs-approval':
      return 'Needs your approval';
    case 'blocked':
      return 'Blocked by policy';
    case 'stopped':
      return 'Stopped';
  }
}

/**
 * Whether the person may ask for a restart from this state (a disabled server must be enabled first). A
 * first start is waited for; a start that failed before and is trying again may be begun afresh.
 */
export function canRestart(status: ServerStatus): boolean {
  if (status.kind === 'starting') return status.attempt > 1;
  return status.kind !== 'disabled' && status.kind !== 'needs-approval' && status.kind !== 'blocked';
}

/**
 * What decides what a server runs or contacts, as the person approves it: the command line, its
 * environment variables and working folder, the program the command finds and the script files it runs;
 * or its address and the names of its headers.
 */
export type LaunchView =
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      env: LaunchVariable[];
      cwd?: string;
      /** Where the command is found on the PATH the server gets; null when it is found nowhere. Known once looked up (a review). */
      program?: string | null;
      /** The local script files it runs, pinned by their content. Known once looked up (a review). */
      scripts?: string[];
    }
  | { transport: 'http' | 'sse'; url: string; headerNames: string[] };

/** An environment variable as the person sees it: its value, unless it looks like a secret (then only that it is set). */
export interface LaunchVariable {
  name: string;
  /** Absent for a secret: it is pinned by a keyed digest and never shown. */
  value?: string;
}

/** One word as a POSIX shell reads it back: left bare when it is safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line a launch runs (words quoted where a shell would need it), or the address it contacts. */
export function launchTarget(view: LaunchView): string {
  if (view.transport !== 'stdio') return view.url;
  return [view.command, ...view.args].map(shellWord).join(' ');
}

/** The definition as one line a person can read (a terminal, a log); secret values are never in it. */
export function describeLaunch(view: LaunchView): string {
  if (view.transport !== 'stdio') return `${view.url}${view.headerNames.length ? ` (headers: ${view.headerNames.join(', ')})` : ''}`;
  const line = launchTarget(view);
  const extras = [
    view.env.length ? `environment: ${view.env.map(describeVariable).join(', ')}` : '',
    view.cwd ? `in ${view.cwd}` : '',
    view.program && view.program !== view.command ? `${view.command} is ${view.program}` : '',
  ].filter(Boolean);
  return extras.length ? `${line} (${extras.join('; ')})` : line;
}

/** `NAME=value`, or `NAME (secret)` when its value is not shown, or kept in Atrium's secret store. */
export function describeVariable(variable: LaunchVariable): string {
  if (variable.value === undefined) return `${variable.name} (secret)`;
  if (/^\$\{secret:[^}\s]+\}$/.test(variable.value)) return `${variable.name} (secret, from Atrium’s secret store)`;
  return `${variable.name}=${shellWord(variable.value)}`;
}

/** A risky shape in a launch definition, said in plain words for the start dialog and the terminal. */
export interface LaunchRisk {
  kind: 'shell-command' | 'download-to-shell' | 'unpinned-package' | 'secret-in-env' | 'code-loading-env' | 'unverified-approval' | 'unsandboxed';
  message: string;
}

/** What the person is asked to approve before a server runs: the definition, what it replaces, its risks. */
export interface LaunchReview {
  serverId: ServerId;
  /** The pin of this exact definition; approving names it, so a definition changed meanwhile is not approved. */
  hash: string;
  definition: LaunchView;
  /** The definition approved before, when this one changed since. */
  approved?: LaunchView;
  /** Whether this exact definition is approved already. */
  current: boolean;
  /** What differs from the approval on record, each in a sentence: a script's content, where the command is found, a variable. */
  changes: string[];
  risks: LaunchRisk[];
  /** Where it came from, when Atrium installed it and it still runs what was installed. */
  origin?: ServerOrigin;
  /** What it will be able to touch once it runs. */
  reach: ServerReach;
  /** An organisation's policy keeps it from starting: approving it would not start it. */
  blocked?: PolicyBlock;
  /** A local server's sandbox: what it will be able to touch with the roots of now, or why it runs without one. */
  sandbox?: SandboxSummary;
  /** What its definition names that is not on this computer: it cannot start as written. */
  missing?: MissingPath[];
}

/** A path a local server's definition names that is not there: its working folder, or a script it runs. */
export interface MissingPath {
  what: 'working folder' | 'script';
  path: string;
}

/** The warning a missing path is, as the start dialog and the terminal say it. */
export function missingPathSentence({ what, path }: MissingPath): string {
  return `${what === 'script' ? 'the script' : 'its working folder'} ${path} is not on this computer, so it cannot start as written.`;
}

export interface ServerCounts {
  tools: number;
  resources: number;
  resourceTemplates: number;
  prompts: number;
}

export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
}

/** Where a remote server's sign-in stands. */
export type AuthState = 'signed-out' | 'signing-in' | 'signed-in' | 'failed';

/**
 * A remote server's sign-in as the person sees it; never a token. Present once the server has asked for
 * authorization (or Atrium holds a sign-in for it); absent for servers that need none.
 */
export interface ServerAuthView {
  state: AuthState;
  /** Who the authorization server says signed in, when its tokens say (untrusted text). */
  subject?: string;
  /** When the current access token expires (epoch ms); it is refreshed before then. */
  expiresAt?: number;
  scopes?: string[];
  /** The authorization server that issued the sign-in. */
  issuer?: string;
  /** Why the last sign-in failed, or why a new one is needed. */
  error?: string;
  /**
   * While signing in: the authorization page the person should see. The desktop app has already opened
   * it in the system browser; the browser mode's window opens it in a new tab.
   */
  signInUrl?: string;
}

/** What signing out did, for the person: whether there was a sign-in, and what was revoked. */
export interface SignOutReport {
  /** Atrium held tokens for the server (else there was nothing to sign out of). */
  hadTokens: boolean;
  /** The authorization server offers revocation (RFC 7009); without it the tokens are only forgotten. */
  revocationOffered: boolean;
  /** What the authorization server revoked: 'refresh token', 'access token'. */
  revoked: string[];
  /** What could not be revoked, and why, as sentences (the tokens are forgotten all the same). */
  problems: string[];
}

/** What the renderer shows of one configured server: a snapshot pushed on every change. */
export interface ServerSnapshot {
  id: ServerId;
  transport: TransportKind;
  /** The command line or URL, exactly as it will be run or contacted. */
  target: string;
  status: ServerStatus;
  /** The person trusts this server's tool annotations. */
  trusted: boolean;
  counts: ServerCounts;
  era?: ProtocolEra;
  protocolVersion?: string;
  serverInfo?: ServerIdentity;
  instructions?: string;
  capabilities?: Record<string, unknown>;
  /** Remote servers that use OAuth: their sign-in. */
  auth?: ServerAuthView;
}

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Every log level, least severe first (syslog's order, which MCP uses). */
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function isLogLevel(value: string): value is LogLevel {
  return (logLevels as readonly string[]).includes(value);
}

/** Whether a line at `level` is as severe as `minimum` or more. */
export function isAtLeast(level: LogLevel, minimum: LogLevel): boolean {
  return logLevels.indexOf(level) >= logLevels.indexOf(minimum);
}

/** Where a log line came from: the child's stderr, an MCP log notification, or Atrium itself. */
export type LogSource = 'stderr' | 'server' | 'host';

export interface LogLine {
  serverId: ServerId;
  at: number;
  level: LogLevel;
  source: LogSource;
  text: string;
}

export interface ProgressUpdate {
  serverId: ServerId;
  callId: string;
  progress: number;
  total?: number;
  message?: string;
}

/** A configuration problem the person must fix; other servers keep running. */
export interface ConfigProblem {
  serverId: ServerId | null;
  field: string;
  message: string;
  /** The file the mistake is in, when it came from one: the window says which file to open. */
  file?: string;
}

/**
 * A file in the data folder that could not be read: it was moved aside, byte for byte, and Atrium
 * started without it; or (`inPlace`) it was left where it is, because the person edits it and broke it
 * while Atrium ran, or a one-shot command read it. Every front end says so in these words (the window's
 * banner, the CLI, the log).
 */
export interface DataFileProblem {
  /** The file's name in the data folder, e.g. "servers.json". */
  file: string;
  /** What is wrong, for a person (line and column for JSON); never the file's raw bytes. */
  problem: string;
  /** Where the damaged copy now is; null when it could not be moved or was left in place (then it is never written). */
  keptAt: string | null;
  /** Left where it is, never written: Atrium keeps what it read before, and the problem goes once the file is readable again. */
  inPlace?: boolean;
  /** What Atrium does without it, e.g. "Atrium started with no servers". */
  withoutIt: string;
  /** The ways to get back what it held (or to carry on without it), each a sentence. */
  recovery: string[];
}

// The rest of the domain, by area (each file is the one place its types are defined).
export * from './domain/tools.ts';
export * from './domain/serverOffers.ts';
export * from './domain/turnEvents.ts';
export * from './domain/grants.ts';
export * from './domain/serverEntry.ts';
