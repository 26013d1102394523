// Builds the transport for one server definition. stdio servers get Atrium's own process transport
// (linear reader, process-group shutdown, stderr into the server's log); remote servers get the SDK's
// Streamable HTTP transport, and the legacy HTTP+SSE transport when the server turns out to be one, both
// over a fetch that bounds every answer in size and time (http/answerBounds.ts).

import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FetchLike, Tool } from '@modelcontextprotocol/client';
import { describeBlock } from '../../../shared/installs.ts';
import { LaunchHeldError } from './connectionServices.ts';
import type { LaunchGate, LaunchSandbox } from './connectionServices.ts';
import { withSecrets } from '../config/secretReferences.ts';
import type { SecretSource } from '../../store/secrets.ts';
import { withMcpRequestHeaders } from './mcpRequestHeaders.ts';
import { boundedFetch } from '../http/answerBounds.ts';
import type { AnswerBounds } from '../http/answerBounds.ts';
import type { RemoteServerDefinition, StdioServerDefinition } from '../config/serverConfig.ts';
import { buildServerEnvironment } from '../stdio/serverEnvironment.ts';
import { prepareWorkingFolder } from '../stdio/serverFolder.ts';
import { launchProblem } from '../stdio/launchFailure.ts';
import { StdioProcessTransport } from '../stdio/stdioProcessTransport.ts';

export interface StdioHooks {
  onStderrLine(line: string): void;
  onNoise(line: string): void;
  onExit(info: { code: number | null; signal: string | null }): void;
}

export async function openStdioTransport(
  def: StdioServerDefinition,
  hooks: StdioHooks,
  limits: { maxMessageBytes?: number; closeGraceMs?: number; workingFolder?: string } = {},
  gate?: LaunchGate,
  secrets?: SecretSource,
  sandbox?: LaunchSandbox,
): Promise<StdioProcessTransport> {
  // The secrets its definition names are put in on the way to the process, never into the definition the gate pins.
  const running = await withSecrets(def, secrets);
  const env = await buildServerEnvironment(running.env);
  // A folder the definition names must be there already (its absence is the person's to fix); Atrium's own is made.
  const cwd = def.cwd ?? limits.workingFolder;
  if (def.cwd === undefined && limits.workingFolder !== undefined) await prepareWorkingFolder(limits.workingFolder);
  // Checked with the very environment it gets, as late as can be: a script edited or a program put
  // earlier on the PATH since the person approved it is not run.
  const hold = await gate?.confirm(def, env);
  if (hold) {
    throw new LaunchHeldError(
      hold,
      hold.kind === 'blocked'
        ? `${def.id}: ${describeBlock(hold.block)}`
        : `${def.id}: what it runs changed since you approved it (a script it runs, or the program its command finds); review it before it starts`,
    );
  }
  const launch = {
    command: running.command,
    args: running.args,
    env,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(limits.maxMessageBytes ? { maxMessageBytes: limits.maxMessageBytes } : {}),
    ...(limits.closeGraceMs !== undefined ? { closeGraceMs: limits.closeGraceMs } : {}),
  };
  if (!sandbox) return new StdioProcessTransport(launch, hooks);
  // Checked here, on the server's own command: inside the sandbox a missing one would be only an exit code.
  const problem = launchProblem(launch);
  if (problem) throw problem;
  const enclosed = await sandbox.enclose(def, launch, hooks);
  return new StdioProcessTransport(enclosed.launch, enclosed.hooks);
}

/** What the host adds beneath every request to a remote server (its OAuth credentials); none by default. */
export type FetchWrapper = (next: FetchLike) => FetchLike;

const unwrapped: FetchWrapper = (next) => next;

// Beneath the credentials, so that what the sign-in layer reads of an answer is bounded too.
export function openHttpTransport(def: RemoteServerDefinition, toolByName: (name: string) => Tool | undefined, bounds: AnswerBounds, wrap: FetchWrapper = unwrapped): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(def.url), {
    requestInit: { headers: def.headers },
    fetch: withMcpRequestHeaders(wrap(boundedFetch(bounds)), toolByName),
  });
}

export function openSseTransport(def: RemoteServerDefinition, bounds: AnswerBounds, wrap: FetchWrapper = unwrapped): SSEClientTransport {
  // The event stream is this transport's connection: one that is lost to an event without end closes it,
  // where its EventSource would only connect again and again.
  const wrapped = wrap(
    boundedFetch({
      ...bounds,
      onEndlessEvent: () => {
        bounds.onEndlessEvent?.();
        void transport.close();
      },
    }),
  );
  const transport = new SSEClientTransport(new URL(def.url), {
    requestInit: { headers: def.headers },
    eventSourceInit: { fetch: (url, init) => wrapped(url, { ...init, headers: { ...def.headers, ...(init?.headers as Record<string, string> | undefined) } }) },
    fetch: wrapped,
  });
  return transport;
}

/**
 * Whether a failed Streamable HTTP connect means "this is a legacy HTTP+SSE server": spec 002 says a
 * client that gets 400, 404 or 405 for its first POST should try the old transport's GET stream.
 */
export function suggestsLegacySse(error: unknown): boolean {
  const status = (error as { status?: unknown; data?: { status?: unknown } } | undefined)?.status ?? (error as { data?: { status?: unknown } } | undefined)?.data?.status;
  if (status === 400 || status === 404 || status === 405) return true;
  const message = error instanceof Error ? error.message : '';
  return /\b(400|404|405)\b/.test(message);
}
