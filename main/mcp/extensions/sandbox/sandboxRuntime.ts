// The sandbox itself: Anthropic's sandbox-runtime (the library VS Code sandboxes MCP servers with), set
// up once per process and shared by every server — its filtering proxy, and on Linux the socat bridge
// that carries a sandbox's traffic to it — and asked for each launch to wrap the server's command: on
// Linux in bubblewrap (its own mount, PID, network and user namespaces, seccomp, dying with its parent),
// on macOS in sandbox-exec. Each launch gets an unguessable id under which its allowed hosts are
// registered with the proxy, and by which what the proxy (or the write monitor) refused is told apart.

import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { shellWord } from '../../../../shared/domain.ts';
import type { StdioServerLaunch } from '../../stdio/stdioProcessTransport.ts';
import { serverProcesses } from '../../stdio/processReaper.ts';
import type { SandboxProfile } from './sandboxProfile.ts';
import type { SandboxTools } from './sandboxTools.ts';
import type { SandboxManager } from '@anthropic-ai/sandbox-runtime';

type Manager = typeof SandboxManager;
type Sandboxed = Extract<SandboxProfile, { kind: 'sandboxed' }>;

/** One wrapped launch: what to spawn, and what to call once it has exited. */
export interface WrappedLaunch {
  launch: StdioServerLaunch;
  /** The id its refusals are recorded under. */
  id: string;
  release(): void;
}

/** Why the sandbox could not be set up or could not wrap a launch: the server does not start. */
export class SandboxFailure extends Error {}

/** A refusal the library recorded: `deny network-outbound host:port (…)` or `deny <syscall> <path>`, with the launch's id. */
export type Refusal = { id: string; line: string };

let manager: Promise<Manager> | undefined;
const refusalListeners = new Set<(refusal: Refusal) => void>();

/** Hears every refusal of every launch (its id says whose); the last to stop listening shuts the proxy and its bridges down. */
export function onRefusal(listener: (refusal: Refusal) => void): () => Promise<void> {
  refusalListeners.add(listener);
  return async () => {
    refusalListeners.delete(listener);
    if (refusalListeners.size > 0 || !manager) return;
    const running = manager;
    manager = undefined;
    await (await running.catch(() => undefined))?.reset();
  };
}

/**
 * Wraps `launch` in a sandbox with `profile`. The command runs in a temporary folder of its own (on
 * Linux the sandbox's private /tmp), in its definition's working folder when it has one, with Node told to
 * send its requests through the proxy — loopback ones too, which only the proxy can reach from inside.
 */
export async function wrapLaunch(launch: StdioServerLaunch, profile: Sandboxed, tools: SandboxTools | undefined, workingFolder: string | undefined): Promise<WrappedLaunch> {
  const sandbox = await setUp(tools);
  const id = randomBytes(16).toString('base64url');
  const temp = '/tmp';
  const inner = [
    `cd ${shellWord(workingFolder ?? temp)}`,
    `export TMPDIR=${temp} TMP=${temp} TEMP=${temp} NO_PROXY= no_proxy= NODE_USE_ENV_PROXY=1`,
    `exec ${[launch.command, ...launch.args].map(shellWord).join(' ')}`,
  ].join(' && ');
  const proxySockets = [sandbox.getLinuxHttpSocketPath(), sandbox.getLinuxSocksSocketPath()].filter((path): path is string => path !== undefined);
  if (profile.hosts.length > 0) sandbox.registerCommandNetworkLists(id, { allowedDomains: profile.hosts });
  let wrapped: { argv: string[] };
  try {
    wrapped = await sandbox.wrapWithSandboxArgv(
      inner,
      '/bin/sh',
      {
        filesystem: { denyRead: profile.hidden, allowRead: [...profile.readable, ...proxySockets], allowWrite: profile.writable, denyWrite: [] },
        network: { allowedDomains: [], deniedDomains: [] },
      },
      undefined,
      undefined,
      { commandId: id },
    );
  } catch (error) {
    sandbox.unregisterCommandNetworkLists(id);
    throw new SandboxFailure(`the sandbox could not be prepared: ${error instanceof Error ? error.message : String(error)}`);
  }
  const [file = '/bin/sh', ...args] = wrapped.argv;
  let released = false;
  return {
    id,
    launch: { ...launch, command: file, args },
    release: () => {
      if (released) return;
      released = true;
      sandbox.unregisterCommandNetworkLists(id);
      sandbox.cleanupAfterCommand();
    },
  };
}

/** The library, set up at the first sandboxed launch of this process: every later one shares its proxy. */
function setUp(tools: SandboxTools | undefined): Promise<Manager> {
  manager ??= (async () => {
    const { SandboxManager } = await import('@anthropic-ai/sandbox-runtime');
    try {
      await SandboxManager.initialize(
        {
          // Nothing is allowed for everyone: each launch registers its own hosts under its id.
          network: { allowedDomains: [], deniedDomains: [] },
          filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
          ...(tools ? { bwrapPath: tools.bwrap, socatPath: tools.socat, ripgrep: { command: tools.rg } } : {}),
        },
        undefined,
        // macOS's log monitor reports real denials. Linux's reports every write attempt against the
        // session's write list, which is empty here (each launch brings its own), so it would call every
        // write a violation: what Linux blocks is read from the server's own error lines instead.
        process.platform === 'darwin',
      );
    } catch (error) {
      manager = undefined;
      throw new SandboxFailure(`the sandbox could not be set up: ${error instanceof Error ? error.message : String(error)}`);
    }
    tellReaperOfBridges();
    SandboxManager.getSandboxViolationStore().subscribe((violations) => {
      for (const violation of violations) {
        if (reported.has(violation) || !violation.encodedCommand) continue;
        reported.add(violation);
        const id = Buffer.from(violation.encodedCommand, 'base64').toString('utf8');
        for (const listener of refusalListeners) listener({ id, line: violation.line });
      }
    });
    return SandboxManager;
  })();
  return manager;
}

const reported = new WeakSet<object>();

/**
 * The library's socat bridge runs beside this process, not inside any sandbox, and would outlive a host
 * killed with SIGKILL: the process reaper is told of it as of a server, so it ends with the host.
 */
function tellReaperOfBridges(): void {
  if (process.platform !== 'linux') return;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && stat.includes('(socat)')) serverProcesses.started(Number(name), false);
    } catch {
      // Gone meanwhile.
    }
  }
}
