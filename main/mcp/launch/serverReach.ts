// What a server will be able to touch once it runs. The start dialog's "what it can touch", the
// terminal's "can touch" line and the policy's requireSandbox all ask this one function, so they never
// disagree. For a local server it says what the sandbox decides (main/mcp/extensions/sandbox/): enclosed
// unless the person opted it out, it runs a container, or the system cannot hold it; where a tool the
// sandbox needs is missing, the server does not start at all. The start dialog lists the profile itself,
// derived from the roots of the moment (the sandbox's summary), under this.

import { basename } from 'node:path';
import type { ServerReach } from '../../../shared/installs.ts';
import { addressKind } from '../../../shared/urlPolicy.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { checkSandboxTools } from '../extensions/sandbox/sandboxTools.ts';

export function serverReach(server: ServerDefinition): ServerReach {
  const roots = (server.roots ?? []).map((root) => `It is given ${root} as a root (a folder to work in); that is a request to it, not a limit.`);
  if (server.transport !== 'stdio') return { where: 'remote', sandboxed: false, summary: remoteSummary(new URL(server.url)), details: roots };
  if (isContainer(server.command, server.args)) {
    return {
      where: 'container',
      sandboxed: false,
      summary: 'It runs in a Docker container: it reaches what docker gives the container (its own files, the network, and any folder or device the command line hands it). Atrium’s sandbox does not apply to containers.',
      details: roots,
    };
  }
  if (server.sandbox !== false && (process.platform === 'linux' || process.platform === 'darwin')) {
    const tools = checkSandboxTools();
    const ownRoots = (server.roots ?? []).map((root) => `It may read and write ${root}, given to it as a root.`);
    return {
      where: 'this-computer',
      sandboxed: !('unavailable' in tools),
      summary:
        'unavailable' in tools
          ? `It runs on this computer, in a sandbox this computer cannot make now (${tools.unavailable.reason.replace(/\.$/, '')}): it does not start until you install what is missing or choose to run it without the sandbox.`
          : 'It runs on this computer in a sandbox: it reads and writes only its roots, its own install and a temporary folder of its own; your home folder and Atrium’s data folder stay hidden, and it reaches the network only where its config allows.',
      details: 'unavailable' in tools ? roots : ownRoots,
    };
  }
  return {
    where: 'this-computer',
    sandboxed: false,
    summary: `It runs on this computer without a sandbox${server.sandbox === false ? ' (you chose to run it without one)' : ''}: it can read, change and delete whatever your user account can, reach the network, and start other programs.`,
    details: roots,
  };
}

/**
 * Where a remote server is, as far as its address tells: Atrium neither starts nor sandboxes it. One at a
 * loopback address is a program on this computer, which reaches whatever the account that runs it can;
 * one on the local network may be this computer too, at a network address.
 */
function remoteSummary(url: URL): string {
  const sees = "it sees what Atrium sends it — your tool calls' arguments";
  switch (addressKind(url.hostname)) {
    case 'loopback':
      return `It is a program already running on this computer (${url.host}), which Atrium neither starts nor sandboxes: ${sees}, and it reaches whatever the account that runs it can.`;
    case 'private':
    case 'link-local':
      return `It runs on your local network (${url.host}), on another computer or on this one: ${sees}; what it can reach there is up to whoever runs it.`;
    default:
      return `It runs on another computer (${url.host}): ${sees} — and nothing on this computer.`;
  }
}

/** `docker run …` or `podman run …`: the program is a container runtime. */
function isContainer(command: string, args: readonly string[]): boolean {
  const program = basename(command).toLowerCase().replace(/\.exe$/, '');
  return (program === 'docker' || program === 'podman') && args[0] === 'run';
}
