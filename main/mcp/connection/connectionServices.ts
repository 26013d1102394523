// What a connection is given by whoever builds it: the client's identity, the roots, the brokers that
// settle a server's sampling and elicitation requests, limits, sign-in and the launch gate. The
// connection side owns these seams (as remoteAuthorization.ts owns sign-in's): the host implements the
// brokers with its consent machinery and injects them, so connection code never imports policy.

import type { EraMemory } from '../launch/learnedEras.ts';
import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Implementation, JSONObject, jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { RootEntry, ServerId, ServerStatus } from '../../../shared/domain.ts';
import type { SecretSource } from '../../store/secrets.ts';
import type { ServerDefinition, StdioServerDefinition } from '../config/serverConfig.ts';
import type { StdioProcessHooks, StdioServerLaunch } from '../stdio/stdioProcessTransport.ts';
import type { AuthorizationFactory } from './remoteAuthorization.ts';
import type { RestartPolicy } from './restartPolicy.ts';

export interface BrokerRequest<P> {
  serverId: ServerId;
  params: P;
  /** Aborted when the server cancels or disconnects: the pending request must be withdrawn. */
  signal: AbortSignal;
  /** Writes a line to this server's own log, as the host (what was chosen, what the person agreed to). */
  note?(text: string, level?: 'info' | 'notice'): void;
}

export type SamplingParams = CreateMessageRequest['params'];
export type ElicitationParams = ElicitRequest['params'];

/** Settles a server's `sampling/createMessage` request: the host asks the person, then the model. */
export interface SamplingBroker {
  createMessage(request: BrokerRequest<SamplingParams>): Promise<CreateMessageResult>;
}

/** Settles a server's `elicitation/create` request: the host asks the person. */
export interface ElicitationBroker {
  elicit(request: BrokerRequest<ElicitationParams>): Promise<ElicitResult>;
}

/** Thrown by a broker when the person (or policy) refuses; becomes a JSON-RPC error to the server. */
export class RequestRefusedError extends Error {}

/** Thrown by a broker when the server's request itself is malformed; becomes an InvalidParams error. */
export class InvalidServerRequestError extends Error {}

export interface ConnectionServices {
  clientInfo: Implementation;
  /**
   * The window shows MCP Apps views: the extension `io.modelcontextprotocol/ui` is declared to servers,
   * which may then send results meant to be seen in a view. A front end without views (the CLI) does not.
   */
  showsViews?: boolean;
  roots: { list(): RootEntry[] };
  sampling: SamplingBroker;
  elicitation: ElicitationBroker;
  validator: jsonSchemaValidator;
  restartPolicy?: RestartPolicy;
  /** Limit for discovery / initialize. */
  connectTimeoutMs?: number;
  /** Default per-request limit when the server's config sets none. */
  requestTimeoutMs?: number;
  /** A tool call that keeps reporting progress may run this long at most. */
  maxCallMs?: number;
  /** Interval of keep-alive pings; 0 turns them off. */
  keepAliveMs?: number;
  maxMessageBytes?: number;
  /**
   * How long a stdio server has to exit once its input is closed, and again after SIGTERM, before the next
   * signal (default 1 s). The spec leaves the wait to the client: a one-shot CLI run waits less.
   */
  closeGraceMs?: number;
  /** The folder a stdio server runs in when its definition names none; without it, the host's own working folder. */
  workingFolder?: string;
  /** What the host learnt of stdio servers' protocol eras in earlier runs (a 2025-era one is started once). */
  eras?: EraMemory;
  /** OAuth for remote servers (the host's sign-in); without it, a server that wants a token just fails. */
  authorization?: AuthorizationFactory;
  /**
   * The same, loaded when the hub adds its first server: the sign-in code brings the SDK's OAuth with it,
   * which a host with no server never needs.
   */
  loadAuthorization?: () => Promise<AuthorizationFactory>;
  /**
   * Whether a server may start: an organisation's policy allows it and the person approved what it runs.
   * Without it every definition runs (the hub's own tests).
   */
  launchGate?: LaunchGate;
  /** Where the secrets a definition names (`${secret:NAME}`) are read, on the way to the server. */
  secrets?: SecretSource;
  /** Encloses each local server in its sandbox (main/mcp/extensions/sandbox/). Without it servers run bare (the hub's own tests). */
  sandbox?: LaunchSandbox;
}

/**
 * An extension's part in every connection (main/mcp/extensions/): what the client declares for it when it
 * connects. Listed once, in main/mcp/extensions/connectionExtensions.ts.
 */
export interface ConnectionExtension {
  /** The extension's identifier, as the client's `extensions` capability names it. */
  readonly id: string;
  /** What the client declares for it, or undefined when this host does not take part (a front end without views). */
  declare(services: ConnectionServices): JSONObject | undefined;
  /** Top-level client capabilities it adds beside `extensions` (a 2025-era feature: the `tasks` receiver side). */
  capabilities?(services: ConnectionServices): Record<string, JSONObject> | undefined;
}

/** Why a server does not start: it waits for the person's approval, or an organisation's policy blocks it. */
export type LaunchHold = Extract<ServerStatus, { kind: 'needs-approval' | 'blocked' }>;

/** Whether a server already shows this very hold (nothing to end and say again). */
export function sameHold(status: ServerStatus, hold: LaunchHold): boolean {
  return JSON.stringify(status) === JSON.stringify(hold);
}

/**
 * The one check every start passes, before anything runs or is contacted and again just before a local
 * server is spawned: the organisation's policy, then the person's approval of what it runs.
 */
export interface LaunchGate {
  /** Undefined when this exact definition may start; else what holds it. */
  check(definition: ServerDefinition): LaunchHold | undefined;
  /**
   * With the environment the local server is about to get: undefined when the policy still allows it and
   * the program its command finds and the scripts it runs are the approved ones (else it is not spawned).
   */
  confirm(definition: ServerDefinition, environment: Readonly<Record<string, string>>): Promise<LaunchHold | undefined>;
}

/** Thrown instead of spawning a server the gate holds just before its spawn (its program changed, the policy changed). */
export class LaunchHeldError extends Error {
  readonly hold: LaunchHold;
  constructor(hold: LaunchHold, message: string) {
    super(message);
    this.hold = hold;
  }
}

/** What a local server is launched in: its sandbox, made for this start (the roots of now). */
export interface LaunchSandbox {
  /**
   * The launch to spawn in place of `launch`, and the hooks to give it (they see what the sandbox kept
   * from the server, and release the sandbox when it exits). Rejects with SandboxUnavailableError when
   * the sandbox cannot run: the server then waits for the person, it never starts without one by itself.
   */
  enclose(definition: StdioServerDefinition, launch: StdioServerLaunch, hooks: StdioProcessHooks): Promise<{ launch: StdioServerLaunch; hooks: StdioProcessHooks }>;
}

/** Thrown instead of starting a server outside the sandbox it should run in (a tool it needs is missing). */
export class SandboxUnavailableError extends Error {}
