// Whether this machine can run the sandbox, and what to install when it cannot: on Linux bubblewrap (the
// namespaces), socat (the bridge to the network proxy) and ripgrep (the library's scan for files that must
// stay read-only); on macOS the system's sandbox-exec. Bubblewrap is also tried once, since a kernel can
// refuse the user namespaces it needs (Ubuntu 24.04 restricts them by default).

import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface SandboxTools {
  bwrap: string;
  socat: string;
  rg: string;
}

export type ToolCheck = { tools: SandboxTools | undefined } | { unavailable: { reason: string; install: string } };

const LINUX_INSTALL =
  'Install them: sudo apt-get install bubblewrap socat ripgrep (Debian, Ubuntu), sudo dnf install bubblewrap socat ripgrep (Fedora), sudo pacman -S bubblewrap socat ripgrep (Arch).';
const PACKAGE_OF: Record<keyof SandboxTools, string> = { bwrap: 'bubblewrap (bwrap)', socat: 'socat', rg: 'ripgrep (rg)' };
/** Where package managers put these, searched after the host's own PATH (a desktop launcher's PATH is short). */
const SYSTEM_FOLDERS = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/opt/homebrew/bin'];

let checked: ToolCheck | undefined;

/** The sandbox's tools on this machine, found once per process (a tool installed meanwhile counts after a restart of Atrium). */
export function checkSandboxTools(platform: NodeJS.Platform = process.platform, path: string = process.env.PATH ?? '', systemFolders: readonly string[] = SYSTEM_FOLDERS): ToolCheck {
  if (platform === 'darwin') return isExecutable('/usr/bin/sandbox-exec') ? { tools: undefined } : { unavailable: { reason: 'sandbox-exec is missing from /usr/bin.', install: 'It is part of macOS: reinstall or update the system.' } };
  if (platform !== 'linux') return { tools: undefined };
  // Only this machine's own answer is kept (the folders another caller names are not the machine's).
  const own = systemFolders === SYSTEM_FOLDERS;
  if (own && checked) return checked;
  const folders = [...path.split(delimiter).filter(Boolean), ...systemFolders];
  const find = (name: string) => folders.map((folder) => join(folder, name)).find(isExecutable);
  const found = { bwrap: find('bwrap'), socat: find('socat'), rg: find('rg') };
  const missing = (Object.keys(found) as (keyof SandboxTools)[]).filter((name) => found[name] === undefined);
  if (missing.length > 0) {
    const names = missing.map((name) => PACKAGE_OF[name]);
    const reason = `${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`} ${missing.length === 1 ? 'is' : 'are'} not installed.`;
    const answer = { unavailable: { reason, install: LINUX_INSTALL } };
    if (own) checked = answer;
    return answer;
  }
  const tools = found as SandboxTools;
  const refusal = bwrapRefusal(tools.bwrap);
  checked = refusal
    ? {
        unavailable: {
          reason: `bubblewrap cannot make a sandbox on this system (${refusal}).`,
          install: 'Allow unprivileged user namespaces: on Ubuntu 24.04 and later, sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or an AppArmor profile for bwrap).',
        },
      }
    : { tools };
  return checked;
}

/** Why bubblewrap fails to make the namespaces the sandbox uses, in its own first line; undefined when it works. */
function bwrapRefusal(bwrap: string): string | undefined {
  const probe = spawnSync(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-user', '--unshare-pid', '--unshare-net', '--die-with-parent', '--', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 5_000,
    encoding: 'utf8',
  });
  if (probe.status === 0) return undefined;
  return (probe.stderr ?? '').split('\n').find((line) => line.trim() !== '')?.replace(/^bwrap: /, '') ?? (probe.error?.message ?? `it exited with status ${probe.status}`);
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
