// `atrium registry search WORDS` and `atrium install NAME[@VERSION] | FILE.mcpb`: the window's Servers ›
// Add › From the registry, and its bundle's form, on the command line, through the same requests. An
// installed server runs nothing before the person approves it: asked on a terminal (with where it came
// from, what it asks for and what it can touch), else left waiting with the one command that approves it.

import { readFile, stat } from 'node:fs/promises';
import type { RunningHost } from '../app/hostCore.ts';
import { shellWord } from '../../shared/domain.ts';
import { nearestWord } from '../../shared/nearestWord.ts';
import { readFieldProblems } from '../../shared/fieldProblems.ts';
import type { RegistrySearch } from '../../shared/installs.ts';
import { BUNDLE_LIMITS, shortName } from '../../shared/installs.ts';
import { timeFromNow } from '../../shared/timeFromNow.ts';
import { safeJson } from '../../shared/serverText.ts';
import type { CliInvocation } from './cliArgs.ts';
import { CliFailure, isBundlePath, wholePath } from './cliArgs.ts';
import { formatServers, oneLine, visible } from './formatOutput.ts';
import type { LaunchConsentIo } from './launchConsent.ts';
import { settleLaunchApprovals } from './launchConsent.ts';

export interface InstallIo extends LaunchConsentIo {
  out(text: string): void;
}

export async function runRegistrySearch(invocation: CliInvocation, core: RunningHost, io: InstallIo): Promise<number> {
  const words = invocation.args.slice(1).join(' ');
  const found = await core.api.searchRegistry({ words, ...(invocation.registry !== undefined ? { registry: invocation.registry } : {}) });
  if (found.unreachable !== undefined) throw new CliFailure(found.unreachable);
  if (invocation.json) io.out(safeJson(found, 2));
  else io.out(formatSearch(words, found));
  return 0;
}

export function formatSearch(words: string, found: RegistrySearch, now: number = Date.now()): string {
  const from = found.fromCopy
    ? `The registry at ${found.registry} did not answer (${found.fromCopy}); these are from the copy Atrium kept ${timeFromNow(found.fetchedAt, now)}.`
    : `From the registry at ${found.registry}, as it answered ${timeFromNow(found.fetchedAt, now)}.`;
  const lines = [visible(from)];
  for (const entry of found.entries) {
    lines.push(`${visible(entry.name)} ${visible(entry.version)}${entry.title ? ` — ${visible(oneLine(entry.title))}` : ''}  [${entry.kinds.join(', ') || 'nothing Atrium can install'}]`);
    lines.push(`    ${visible(oneLine(entry.description))}`);
    lines.push(`    publisher ${visible(entry.publisher.namespace)}: ${entry.publisher.verified ? 'verified' : 'not verified'}`);
    if (entry.status === 'deprecated') lines.push(`    ⚠ deprecated${entry.statusMessage ? `: ${visible(oneLine(entry.statusMessage))}` : ''}`);
  }
  const skipped = found.skipped ? ` (${found.skipped === 1 ? '1 entry' : `${found.skipped} entries`} the registry sent could not be read and ${found.skipped === 1 ? 'was' : 'were'} left out)` : '';
  lines.push(`${found.total} server${found.total === 1 ? '' : 's'} match${found.total === 1 ? 'es' : ''} "${visible(words)}"${skipped}.`);
  return lines.join('\n');
}

export async function runInstall(invocation: CliInvocation, core: RunningHost, io: InstallIo, signal?: AbortSignal): Promise<number> {
  const [what = ''] = invocation.args;
  const values = invocation.values ?? {};
  // A file that is not a bundle is most likely a config file (a registry name is not a file here).
  if (!isBundlePath(what) && (await stat(wholePath(what)).catch(() => undefined))?.isFile()) {
    throw new CliFailure(`${what} is not a .mcpb bundle: to add the servers of a config file, run atrium import ${shellWord(what)}`);
  }
  const registry = invocation.registry !== undefined ? { registry: invocation.registry } : {};
  const sha256 = invocation.sha256 !== undefined ? { sha256: invocation.sha256 } : {};
  const bundle = isBundlePath(what) ? await bundleBytes(what) : undefined;
  // What is installed, as the window's form shows it first: the same version installed again would be a
  // second server of the same thing, made unseen (a command run again from the shell's history).
  const planned = bundle !== undefined ? await core.api.previewBundle({ bundle, ...sha256 }) : await planEntry(core, nameAndVersion(what), registry);
  const [name, version] = 'entry' in planned ? [planned.entry.name, planned.entry.version] : [planned.name, planned.version];
  const same = planned.installed.find((server) => server.version === version);
  if (same) {
    const id = visible(same.serverId);
    throw new CliFailure(`${visible(name)} ${visible(version)} is installed already, as ${id}: nothing was installed (atrium servers remove ${id}, then install it again, to start over)`);
  }
  const server = await (bundle !== undefined
    ? core.api.installBundle({ bundle, values, ...sha256 })
    : // The version just looked at, not whatever the registry calls latest by now.
      core.api.installFromRegistry({ name, version, values, ...registry })
  ).catch((error: unknown) => {
    // The host names each value missing (as the form's field); how to give it is this command's own words.
    const missing = readFieldProblems((error as { fields?: unknown } | null)?.fields)?.filter((problem) => problem.field.startsWith('values.'));
    if (missing?.length) throw new CliFailure(missing.map((problem) => `${problem.message}: give it with --env ${problem.field.slice('values.'.length)}=…`).join('\n'));
    throw error;
  });
  io.out(`Installed ${visible(server.id)} in ${visible(core.configPath)}. It is not trusted: Atrium asks before it runs its tools, and it starts once you approve what it runs.`);
  if (planned.installed.length > 0) {
    const beside = planned.installed.map((other) => `${visible(other.serverId)} (${visible(other.version)})`).join(', ');
    io.out(`It is beside ${beside}, installed from ${visible(name)} before: each keeps settings of its own.`);
  }
  const refused = await settleLaunchApprovals(core, io, invocation.configPath, signal);
  if (refused.includes(server.id)) return 0;
  await core.whenSettled();
  const started = (await core.api.listServers({})).find((snapshot) => snapshot.id === server.id);
  if (!started) return 0;
  io.out(formatServers([started]));
  return started.status.kind === 'ready' ? 0 : 1;
}

/**
 * The registry's entry of this name; one it does not have names the one meant, from its list: the entry
 * whose short name this is (`weather` for io.github.alice/weather), the nearest name to a slip, or the
 * latest version of a name it has at another.
 */
async function planEntry(core: RunningHost, wanted: { name: string; version?: string }, registry: { registry?: string }) {
  try {
    return await core.api.planRegistryInstall({ ...wanted, ...registry });
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'not_found') throw error;
    const listed = (await core.api.searchRegistry({ words: '', ...registry }).catch(() => undefined))?.entries ?? [];
    const same = listed.find((entry) => entry.name === wanted.name);
    if (same) throw new CliFailure(`${(error as Error).message}: its latest version there is ${visible(same.version)}`);
    const names = listed.map((entry) => entry.name);
    const byShortName = names.filter((name) => shortName(name) === wanted.name);
    const meant = byShortName.length === 1 ? byShortName[0] : nearestWord(wanted.name, names);
    throw meant ? new CliFailure(`${(error as Error).message}: did you mean ${visible(meant)}?`) : error;
  }
}

/** `name@1.2.3`: the version after the last @ that is not the first character (a scope's @ is not a version). */
function nameAndVersion(text: string): { name: string; version?: string } {
  const at = text.lastIndexOf('@');
  return at > 0 ? { name: text.slice(0, at), version: text.slice(at + 1) } : { name: text };
}

async function bundleBytes(path: string): Promise<string> {
  const file = wholePath(path);
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile()) throw new CliFailure(`${path}: there is no such file`);
  if (found.size > BUNDLE_LIMITS.fileBytes) throw new CliFailure(`${path} is ${Math.round(found.size / 1024 / 1024)} MB, over the ${BUNDLE_LIMITS.fileBytes / 1024 / 1024} MB Atrium installs`);
  return (await readFile(file)).toString('base64');
}
