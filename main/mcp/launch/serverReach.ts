// What a server will be able to touch once it runs. The start dialog's "what it can touch", the
// terminal's "can touch" line and the policy's requireSandbox all ask this one function, so they never
// disagree. For a local server it says what the sandbox decides (main/mcp/extensions/sandbox/): enclosed
// unless the person opted it out, it runs a container, or the system cannot hold it; where a tool the
// sandbox needs is missing, the server does not start at all. The start dialog lists the profile itself,
// derived from the roots of the moment (the sandbox's summary), under this.

import { basename } from 'node:path';
import type { ServerReach } from '../../../shared/installs.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { checkSandboxTools } from '../extensions/sandbox/sandboxTools.ts';

export function serverReach(server: ServerDefinition): ServerReach {
  const roots = (server.roots ?? []).map((root) => `It is given ${root} as a root (a folder to work in); that is a request to it, not a limit.`);
  if (server.transport !== 'stdio') {
    return {
      where: 'remote',
      sandboxed: false,
      summary: `It runs on another computer (${new URL(server.url).host}): it sees what Atrium sends it — your tool calls' arguments — and nothing on this computer.`,
      details: roots,
    };
  }
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

/** `docker run …` or `podman run …`: the program is a container runtime. */
function isContainer(command: string, args: readonly string[]): boolean {
  const program = basename(command).toLowerCase().replace(/\.exe$/, '');
  return (program === 'docker' || program === 'podman') && args[0] === 'run';
}
