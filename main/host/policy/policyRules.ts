// Whether an organisation's policy lets a server start, and if not, which rule says no. In order, as
// GitHub's managed settings evaluate them: a server that matches any `deniedMcpServers` entry is blocked
// (nothing overrides a deny); with `allowedMcpServers` present, a server must match one of its entries —
// a remote one a `serverUrl` entry and a local one a `serverCommand` entry, a `serverName` entry counting
// only where the list has none of those (a name is a label anyone can give, not what runs); then
// `registryOnly` and `requireSandbox`. Pure: the launch gate, the installer and `import` all ask this.

import type { PolicyBlock, ServerReach } from '../../../shared/installs.ts';
import type { ServerDefinition } from '../../mcp/config/serverConfig.ts';
import { registryAddress } from '../../mcp/install/registry/registryAddress.ts';
import type { PolicyDocument, PolicyEntry } from './policyDocument.ts';

/** What the rules need to know of a server beyond its definition. */
export interface PolicyFacts {
  /** The registry it was installed from, when Atrium's signed record says so and it still runs what was installed. */
  installedFrom: string | undefined;
  reach: ServerReach;
}

/** A policy file as read: its rules, or the problem that keeps it from being read (then it blocks every server). */
export type LoadedPolicy = { file: string; policy: PolicyDocument } | { file: string; problem: string };

export function policyBlock(loaded: LoadedPolicy, server: ServerDefinition, facts: PolicyFacts): PolicyBlock | undefined {
  const { file } = loaded;
  if ('problem' in loaded) {
    return { file, rule: '(file)', message: `Your organisation's policy file cannot be read (${loaded.problem}); until it is fixed, no server starts` };
  }
  const { policy } = loaded;
  const denied = (policy.deniedMcpServers ?? []).findIndex((entry) => matches(entry, server));
  if (denied >= 0) {
    return { file, rule: `deniedMcpServers[${denied}] ${JSON.stringify(policy.deniedMcpServers?.[denied])}`, message: "Your organisation's policy does not allow this server" };
  }
  if (policy.allowedMcpServers !== undefined && !allowed(policy.allowedMcpServers, server)) {
    return { file, rule: 'allowedMcpServers', message: `This server is not on your organisation's list of allowed servers (its ${server.transport === 'stdio' ? 'command line' : 'address'} matches no entry)` };
  }
  if (policy.registryOnly && !fromTheRegistry(policy, facts.installedFrom)) {
    return {
      file,
      rule: 'registryOnly',
      message: `Your organisation's policy allows only servers installed from ${policy.registryUrl ? `the registry at ${policy.registryUrl}` : 'a registry'}, and running what was installed`,
    };
  }
  if (policy.requireSandbox && facts.reach.where !== 'remote' && !facts.reach.sandboxed) {
    return { file, rule: 'requireSandbox', message: "Your organisation's policy allows only servers that run in a sandbox, and this one would run without one" };
  }
  return undefined;
}

function allowed(entries: readonly PolicyEntry[], server: ServerDefinition): boolean {
  const own = server.transport === 'stdio' ? 'serverCommand' : 'serverUrl';
  const namesCount = !entries.some((entry) => own in entry);
  return entries.some((entry) => (own in entry || (namesCount && 'serverName' in entry)) && matches(entry, server));
}

export function matches(entry: PolicyEntry, server: ServerDefinition): boolean {
  if ('serverName' in entry) return entry.serverName === server.id;
  if ('serverCommand' in entry) {
    if (server.transport !== 'stdio') return false;
    const line = [server.command, ...server.args];
    return line.length === entry.serverCommand.length && line.every((word, index) => word === entry.serverCommand[index]);
  }
  return server.transport !== 'stdio' && urlMatches(entry.serverUrl, server.url);
}

/** `*` matches anything, anywhere (the scheme too); the host is compared without case and without a trailing dot. */
export function urlMatches(pattern: string, url: string): boolean {
  const regex = new RegExp(`^${normaliseHost(pattern).split('*').map(escapeRegex).join('.*')}$`);
  return regex.test(normaliseHost(url));
}

/** The scheme and host in lower case, a trailing FQDN dot dropped; the path as it is (paths are case-sensitive). */
function normaliseHost(text: string): string {
  const match = /^([^:/]*:\/\/)([^/?#]*)(.*)$/s.exec(text);
  if (!match) return text;
  const [, scheme = '', host = '', rest = ''] = match;
  return `${scheme.toLowerCase()}${host.toLowerCase().replace(/\.(?=(:\d+)?$)/, '')}${rest}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

function fromTheRegistry(policy: PolicyDocument, installedFrom: string | undefined): boolean {
  if (installedFrom === undefined) return false;
  if (policy.registryUrl === undefined) return true;
  try {
    return installedFrom === registryAddress(policy.registryUrl, 'registryUrl');
  } catch {
    return false;
  }
}
