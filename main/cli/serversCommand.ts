// `atrium servers approve | add | remove | enable | disable`: changing the servers file from the command line through the
// same requests the window's server editor makes. An added server is never trusted and runs only once
// the person approved its definition: asked on a terminal as the window's start dialog asks, else left
// waiting with the one command that approves it.

import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { RunningHost } from '../app/hostCore.ts';
import type { StoredServerEntry } from '../../shared/domain.ts';
import { describeLaunch, shellWord } from '../../shared/domain.ts';
import { describeBlock } from '../../shared/installs.ts';
import type { CliInvocation, NewServer } from './cliArgs.ts';
import { CliFailure } from './cliArgs.ts';
import { formatServers, visible } from './formatOutput.ts';
import type { LaunchConsentIo } from './launchConsent.ts';
import { describeReview, settleLaunchApprovals, whyItCannotStart } from './launchConsent.ts';

export interface ServersIo extends LaunchConsentIo {
  out(text: string): void;
}

export type ServersAction = 'approve' | 'add' | 'remove' | 'enable' | 'disable';

const ACTIONS: readonly ServersAction[] = ['approve', 'add', 'remove', 'enable', 'disable'];

export function serversAction(invocation: CliInvocation): ServersAction | undefined {
  const [action] = invocation.args;
  return invocation.command === 'servers' && ACTIONS.includes(action as ServersAction) ? (action as ServersAction) : undefined;
}

export function runServersAction(action: ServersAction, invocation: CliInvocation, core: RunningHost, io: ServersIo, signal?: AbortSignal): Promise<number> {
  const serverId = invocation.args[1] ?? '';
  switch (action) {
    case 'approve':
      return runApprove(serverId, core, io);
    case 'remove':
      return runRemove(serverId, core, io);
    case 'enable':
    case 'disable':
      return runSwitch(serverId, action === 'enable', core, io);
    case 'add':
      if (!invocation.newServer) throw new CliFailure('"servers add" needs a command line or an address');
      return runAdd(serverId, invocation.newServer, invocation.configPath, core, io, signal);
  }
}

/** `atrium servers approve NAME`: the person approves the server's definition as it is now, shown as it is pinned. */
async function runApprove(serverId: string, core: RunningHost, io: ServersIo): Promise<number> {
  const server = (await core.api.listServers({})).find((snapshot) => snapshot.id === serverId);
  if (!server) throw new CliFailure(`there is no server named "${serverId}" in ${core.configPath}`);
  const review = await core.api.reviewServerLaunch({ serverId });
  // Approved or not, a server the organisation's policy blocks does not start: said with the rule.
  if (review.blocked) throw new CliFailure(`${visible(serverId)} cannot start: ${visible(describeBlock(review.blocked))}`);
  if (review.current) {
    io.out(`${visible(serverId)} is approved already: ${visible(describeLaunch(review.definition))}`);
    return 0;
  }
  for (const line of describeReview(review)) io.out(line);
  await core.api.approveServerLaunch({ serverId, hash: review.hash, start: false });
  // Said as it will be: a definition that names what is not on this computer does not start, approved or not.
  const next = whyItCannotStart(review).length > 0
    ? ', but it cannot start as written (above): mend its definition, then approve it again'
    : server.status.kind === 'disabled'
      ? ` (it is disabled: to start it, atrium servers enable ${shellWord(serverId)})`
      : ': it starts with the next command';
  io.out(`Approved ${visible(serverId)}${next}.`);
  return 0;
}

/** `atrium servers enable | disable NAME`: the window's on/off switch; only that field of its entry changes. */
async function runSwitch(serverId: string, enabled: boolean, core: RunningHost, io: ServersIo): Promise<number> {
  await core.api.setServerEnabled({ serverId, enabled });
  if (!enabled) {
    io.out(`Disabled ${visible(serverId)}: it does not start until you enable it (atrium servers enable ${shellWord(serverId)}).`);
    return 0;
  }
  // On is not approved: a definition the person has not approved (or a policy blocks) still does not start.
  const review = await core.api.reviewServerLaunch({ serverId });
  if (review.blocked) io.out(`Enabled ${visible(serverId)}, but it cannot start: ${visible(describeBlock(review.blocked))}.`);
  else if (!review.current) io.out(`Enabled ${visible(serverId)}: it starts once you approve what it runs (atrium servers approve ${shellWord(serverId)}).`);
  else io.out(`Enabled ${visible(serverId)}: it starts with the next command.`);
  return 0;
}

/**
 * `atrium servers add NAME -- COMMAND ARGS…` or `--url ADDRESS`: saved as the window's editor saves a
 * server (not trusted, off until approved), then put to the person like any server that waits for approval.
 */
async function runAdd(serverId: string, server: NewServer, configPath: string | undefined, core: RunningHost, io: ServersIo, signal?: AbortSignal): Promise<number> {
  const here = 'url' in server ? undefined : fileOfThisFolder(server);
  if (here !== undefined) {
    throw new CliFailure(
      `${visible(here)} is a file in this folder, but Atrium starts ${visible(serverId)} in a folder of its own, where it is not: give its full path (${visible(resolve(here))}), or add it with --cwd . to run it here`,
    );
  }
  const entry: StoredServerEntry =
    'url' in server
      ? { type: 'http', url: server.url }
      : { command: server.command, args: server.args, ...(Object.keys(server.env).length ? { env: server.env } : {}), ...(server.cwd !== undefined ? { cwd: server.cwd } : {}) };
  await core.api.saveServer({ serverId, entry });
  io.out(`Added ${visible(serverId)} to ${visible(core.configPath)}. It is not trusted: Atrium asks before it runs its tools, and it starts once you approve what it runs.`);
  // On, so it waits for approval as an imported server does: the question follows, or the command that approves it.
  await core.api.setServerEnabled({ serverId, enabled: true });
  const refused = await settleLaunchApprovals(core, io, configPath, signal);
  if (refused.includes(serverId)) return 0;
  await core.whenSettled();
  const started = (await core.api.listServers({})).find((snapshot) => snapshot.id === serverId);
  if (!started) return 0;
  io.out(formatServers([started]));
  return started.status.kind === 'ready' ? 0 : 1;
}

/**
 * A file of the folder the command was typed in, named by a relative path in the server's command line.
 * A server does not run there (unless --cwd says so), so the path would name nothing when it starts. A
 * program found on the PATH (a command without a slash) is not such a file.
 */
function fileOfThisFolder(server: { command: string; args: string[]; cwd?: string }): string | undefined {
  if (server.cwd !== undefined) return undefined;
  const words = [...(server.command.includes('/') ? [server.command] : []), ...server.args];
  return words.find((word) => word !== '' && !isAbsolute(word) && !word.includes('://') && statSync(word, { throwIfNoEntry: false })?.isFile() === true);
}

/** `atrium servers remove NAME`: out of the servers file, and the secrets kept for it out of the store. */
async function runRemove(serverId: string, core: RunningHost, io: ServersIo): Promise<number> {
  await core.api.removeServer({ serverId });
  io.out(`Removed ${visible(serverId)} from ${visible(core.configPath)}.`);
  return 0;
}
