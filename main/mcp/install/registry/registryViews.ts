// A registry's records as the person sees them: searched by every word in the name, title or description
// (a registry's own search matches names only, so Atrium filters itself), deleted entries never shown,
// deprecated ones shown with their message, and each publisher's namespace with whether anyone checked it.

import type { InstallKind, Publisher, RegistryEntryView } from '../../../../shared/installs.ts';
import type { RegistryRecord } from './registryRecords.ts';
import { OFFICIAL_REGISTRY } from './registryClient.ts';

/** Who published an entry: its namespace, and whether the registry it came from checks that they control it. */
export function publisherOf(name: string, registry: string): Publisher {
  const namespace = name.slice(0, name.indexOf('/'));
  if (registry.replace(/\/+$/, '') !== OFFICIAL_REGISTRY) {
    return { namespace, verified: false, note: `Published on the registry at ${registry}; Atrium cannot tell whether that registry checks who controls ${namespace}.` };
  }
  const github = /^io\.github\.(.+)$/.exec(namespace)?.[1];
  if (github) return { namespace, verified: true, note: `The official MCP Registry checked, when it was published, that the publisher signed in as the GitHub account ${github}.` };
  const domain = namespace.split('.').reverse().join('.');
  return { namespace, verified: true, note: `The official MCP Registry checked, when it was published, that the publisher controls the domain ${domain}.` };
}

export function entryView(record: RegistryRecord, registry: string): RegistryEntryView {
  const { server } = record;
  return {
    name: server.name,
    ...(server.title ? { title: server.title } : {}),
    description: server.description,
    version: server.version,
    status: record.status === 'deprecated' ? 'deprecated' : 'active',
    ...(record.status === 'deprecated' && record.statusMessage ? { statusMessage: record.statusMessage } : {}),
    publisher: publisherOf(server.name, registry),
    kinds: kindsOf(record),
    ...(server.websiteUrl ? { websiteUrl: server.websiteUrl } : {}),
    ...(server.repository?.url ? { repositoryUrl: server.repository.url } : {}),
  };
}

/** The ways an entry can run, as the list names them. */
export function kindsOf(record: RegistryRecord): InstallKind[] {
  const kinds = new Set<InstallKind>();
  for (const pkg of record.server.packages ?? []) {
    if (pkg.registryType === 'npm' || pkg.registryType === 'pypi' || pkg.registryType === 'oci' || pkg.registryType === 'mcpb') kinds.add(pkg.registryType);
  }
  if ((record.server.remotes ?? []).length > 0) kinds.add('remote');
  return [...kinds];
}

/**
 * The entries whose name, title or description holds every word (any case), one per server (its latest
 * version), deleted ones left out; those that match by name first.
 */
export function searchRecords(records: readonly RegistryRecord[], words: string): RegistryRecord[] {
  const wanted = words.toLowerCase().split(/\s+/).filter(Boolean);
  const latest = new Map<string, RegistryRecord>();
  for (const record of records) {
    const before = latest.get(record.server.name);
    // A registry asked for the latest versions sends one per server; one that sends more is read by its isLatest mark.
    if (!before || (record.isLatest === true && before.isLatest !== true)) latest.set(record.server.name, record);
  }
  const found = [...latest.values()].filter((record) => {
    if (record.status === 'deleted') return false;
    const haystack = `${record.server.name} ${record.server.title ?? ''} ${record.server.description}`.toLowerCase();
    return wanted.every((word) => haystack.includes(word));
  });
  const inName = (record: RegistryRecord) => wanted.length > 0 && wanted.every((word) => `${record.server.name} ${record.server.title ?? ''}`.toLowerCase().includes(word));
  return found.sort((a, b) => Number(inName(b)) - Number(inName(a)) || a.server.name.localeCompare(b.server.name));
}
