// What a front end asks of the host it starts (HostCoreOptions), and what it gets back: a RunningHost —
// the API, its events and the host's lifetime — or, for tests and benchmarks, the HostCore with its parts.

import type { AtriumApi, SamplingChoice } from '../../shared/contract.ts';
import type { ElicitationAnswer } from '../../shared/pendingPayloads.ts';
import type { ConfigProblem, ServerStatus } from '../../shared/domain.ts';
import type { ConversationServices } from '../api/conversationServices.ts';
import type { EventBus } from '../api/eventBus.ts';
import type { FrontEnd } from '../api/hostInfoApi.ts';
import type { SampleServerLaunch } from '../api/setupApi.ts';
import type { LlmProvider, ProviderConfig } from '../chat/llmTypes.ts';
import type { ProviderChoice, ProviderSettings } from '../chat/providerSettings.ts';
import type { ProviderOptions } from '../chat/providers/createProvider.ts';
import type { ApprovalMode } from '../host/approval/grantLedger.ts';
import type { SamplingPolicy } from '../host/sampling/samplingBroker.ts';
import type { McpHub } from '../mcp/McpHub.ts';
import type { ToolCheck } from '../mcp/extensions/sandbox/sandboxTools.ts';
import type { ServerRegistry } from '../mcp/ServerRegistry.ts';
import type { CredentialStore } from '../mcp/auth/credentialVault.ts';
import type { SignInServices } from '../mcp/auth/serverAuthorization.ts';
import type { ElicitationBroker, SamplingBroker } from '../mcp/connection/connectionServices.ts';
import type { RestartPolicy } from '../mcp/connection/restartPolicy.ts';
import type { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';
import type { LaunchPinKeys } from '../mcp/launch/pinKey.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import type { SecretSource } from '../store/secrets.ts';

/**
 * How long a one-shot run (the CLI) lets a stopped stdio server exit after its input closes, and after
 * SIGTERM, before the next signal: a server that ignores the end of its input (server-everything does)
 * would otherwise hold every command for the default second.
 */
export const ONE_SHOT_CLOSE_GRACE_MS = 200;

export interface HostCoreOptions {
  /** Atrium's data folder (ATRIUM_HOME, else the OS app-data folder). */
  home: string;
  /** A servers file to use instead of the stored one; it is read, never written. */
  configPath?: string;
  /** The workspace whose roots servers see (made if new); the last active one otherwise. */
  workspace?: string;
  /** Folders exposed to servers for this run only, beside the workspace's roots (the CLI's --root). */
  roots?: string[];
  /** The person's home folder, which every server's sandbox hides; the OS's (HOME) by default. */
  personHome?: string;
  /** Whether the sandbox's tools are there, when not this machine's answer (tests of a machine without them). */
  sandboxTools?: ToolCheck;
  /** Start only these servers (the CLI's one-server commands); every configured server otherwise. */
  onlyServers?: readonly string[];
  /** false: add the servers without starting them (the CLI's sign-out needs no connection). */
  startServers?: boolean;
  sampling?: SamplingBroker;
  /** A broker that answers elicitations instead of the person (tests); the person is asked through pending requests otherwise. */
  elicitation?: ElicitationBroker;
  /** One answer to every elicitation (the CLI's --elicit), held to the same form rules as a person's. */
  elicitationAnswer?: ElicitationAnswer;
  /** Opens a URL the person agreed to open from a server's URL elicitation; by default it is written to the server's log. */
  openUrl?(url: string, serverId: string, note?: (text: string, level?: 'info' | 'notice') => void): void;
  restartPolicy?: RestartPolicy;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  keepAliveMs?: number;
  /** The largest single message read from a stdio server (default 256 MiB); a server's config may override it. */
  maxMessageBytes?: number;
  /** How long a stopped stdio server has to exit before the next signal (default 1 s; the CLI waits less). */
  serverCloseGraceMs?: number;
  /**
   * How tool calls are decided for this run only, over the choice saved in Settings: 'ask' (the policy and
   * the person), 'ask-every', 'readonly', 'all', 'none'. Without it, the saved choice, else 'ask'.
   */
  approvalMode?: ApprovalMode;
  /**
   * Servers' sampling requests for this run only, over the choice saved in Settings: 'deny', 'ask' the
   * person, or 'approve' a trusted server's without asking. Ignored when `sampling` is given.
   */
  samplingPolicy?: SamplingPolicy;
  /** Sampling when neither this run nor Settings chose: 'deny' unless given ('ask' where a person is at a window). */
  samplingDefault?: SamplingChoice;
  /**
   * The provider, model and base URL this run's flags name (the CLI): a server's sampling request uses
   * them where its conversation names none, and the base URL applies to every request to that provider.
   */
  runChoice?: ProviderChoice;
  secrets?: SecretSource;
  /** Where keys entered in the window are kept (encrypted); without it, keys come from the environment only. */
  secretStore?: WritableSecrets;
  /** Why keys kept here are not well protected (no usable OS keychain); Settings shows it and asks before storing. */
  keyStorageWarning?: string;
  /** What signs the person's launch approvals (the desktop app's key is the keychain's); the data folder's `secrets.key` otherwise. */
  launchPinKeys?: LaunchPinKeys;
  /** The window's front end: which one, and the native abilities it injects (the folder picker). */
  frontEnd?: FrontEnd;
  /**
   * The process was launched from a desktop menu, not a shell: servers' PATH then puts the login shell's
   * before the bare one it inherited. Started from a shell (the default), the inherited PATH leads.
   */
  launchedFromDesktop?: boolean;
  /** How the sample server is started (the desktop app runs a bundled copy with a real Node). */
  sampleServer?: SampleServerLaunch;
  /** LLM providers; read from the home's providers.json when not given. */
  providerSettings?: ProviderSettings;
  makeProvider?: (config: ProviderConfig, options?: ProviderOptions) => LlmProvider;
  /** ':memory:' keeps conversations in memory only (the conformance client); the home's atrium.db otherwise. */
  databasePath?: string;
  /**
   * Signing in to remote servers (OAuth). `openAuthorizationUrl` shows the person the authorization page
   * (by default nothing is opened: the page's address is in the server's `auth.signInUrl` for the
   * window); `mode` says whether a server that needs a sign-in starts one by itself ('automatic', the
   * headless client that answers the page itself) or waits for the person's signIn ('when-asked', the default).
   */
  signIn?: Partial<Pick<SignInServices, 'mode' | 'openAuthorizationUrl' | 'clientMetadataUrl' | 'fetch' | 'timeoutMs'>>;
  /**
   * Where sign-ins are kept: by default the secret store when it is well protected (they survive a
   * restart), else memory (they last this run).
   */
  credentialStore?: CredentialStore;
  /** The environment this run's own settings come from (ATRIUM_POLICY_FILE, ATRIUM_REGISTRY_URL); this process's by default. */
  environment?: NodeJS.ProcessEnv;
  /** Where the machine's policy file is read (tests name one; the platform's place otherwise). */
  machinePolicyFile?: string;
}

/**
 * What a front end holds of a running host: the API the window uses, the contract's events, and the
 * host's lifetime. The CLI, the browser mode and the desktop app take this, never the parts behind it.
 */
export interface RunningHost {
  readonly api: AtriumApi;
  readonly events: Pick<EventBus, 'on'>;
  /** The servers file in use (the stored one, or --config's). */
  readonly configPath: string;
  /** Resolves once every started server is ready, failed, or waits for the person (a sign-in, an approval). */
  whenSettled(): Promise<Map<string, ServerStatus>>;
  /** Stops every server (no child process left behind) and ends remote sessions. */
  shutdown(): Promise<void>;
}

/** The running host with its parts, for the tests and benchmarks that set a scene up behind the API. */
export interface HostCore extends RunningHost {
  readonly events: EventBus;
  readonly hub: McpHub;
  readonly launchApprovals: LaunchApprovals;
  readonly registry: ServerRegistry;
  readonly configProblems: ConfigProblem[];
  readonly conversations: ConversationServices;
}
