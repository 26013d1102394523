// What a server will be able to touch once it runs. The start dialog's "what it can touch" and the
// policy's requireSandbox both ask this one function, so the two never disagree.
//
// The seam for the sandbox: its pure function that derives a server's sandbox profile
// (main/mcp/extensions/sandbox/) plugs in here, in `serverReach`'s local branch, turning its profile into
// `sandboxed: true` and a sentence per thing the profile allows. Until then this says what is true
// without a sandbox.

import { basename } from 'node:path';
import type { ServerReach } from '../../../shared/installs.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';

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
  return {
    where: 'this-computer',
    sandboxed: false,
    summary: 'It runs on this computer without a sandbox: it can read, change and delete whatever your user account can, reach the network, and start other programs.',
    details: roots,
  };
}

/** `docker run …` or `podman run …`: the program is a container runtime. */
function isContainer(command: string, args: readonly string[]): boolean {
  const program = basename(command).toLowerCase().replace(/\.exe$/, '');
  return (program === 'docker' || program === 'podman') && args[0] === 'run';
}
