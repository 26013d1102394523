// A server's `sandbox` entry in servers.json, in VS Code's vocabulary so a person can carry it over:
// `"sandbox": { "filesystem": { "allowRead": [], "allowWrite": [], "denyRead": [] }, "network":
// { "allowedDomains": [] } }` widens (or narrows) what the server may touch; `"sandbox": false` runs it
// outside the sandbox. Absent (or `true`), the server gets the default profile (sandboxProfile.ts).

import { isIP } from 'node:net';
import type { SandboxAllowances, SandboxSetting } from './contract/sandboxContract.ts';

export type { SandboxAllowances, SandboxSetting };

const pathList = { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 4096 } } as const;

// Exported for serverConfig.ts's entry schema (and the meta-schema check of own schemas).
export const sandboxSettingSchema = {
  oneOf: [
    { type: 'boolean' },
    {
      type: 'object',
      additionalProperties: false,
      properties: {
        filesystem: {
          type: 'object',
          additionalProperties: false,
          properties: { allowRead: pathList, allowWrite: pathList, denyRead: pathList },
        },
        network: {
          type: 'object',
          additionalProperties: false,
          properties: { allowedDomains: { type: 'array', maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 300 } } },
        },
      },
    },
  ],
} as const;

/** What the entry's `sandbox` says, or the problem with it (field and sentence) once the schema has passed. */
export function readSandboxSetting(value: unknown): { setting: SandboxSetting | undefined } | { problem: [string, string] } {
  if (value === undefined || value === true) return { setting: undefined };
  if (value === false) return { setting: false };
  const setting = value as SandboxAllowances;
  for (const key of ['allowRead', 'allowWrite', 'denyRead'] as const) {
    const bad = setting.filesystem?.[key]?.find((path) => !isAbsoluteOrHome(path));
    if (bad !== undefined) return { problem: [`sandbox.filesystem.${key}`, `"${bad}" in sandbox.filesystem.${key} must be a full path (starting with / or ~/)`] };
  }
  const host = setting.network?.allowedDomains?.find((entry) => !isHostPattern(entry));
  if (host !== undefined) {
    return { problem: ['sandbox.network.allowedDomains', `"${host}" in sandbox.network.allowedDomains is not a host: write a name (example.com, *.example.com) or an address (127.0.0.1), with :port to allow one port only`] };
  }
  return { setting: withoutEmptyLists(setting) };
}

/** The setting as servers.json keeps it: only the lists that hold something. */
function withoutEmptyLists(setting: SandboxAllowances): SandboxAllowances {
  const filesystem = Object.fromEntries(Object.entries(setting.filesystem ?? {}).filter(([, list]) => list.length > 0));
  const domains = setting.network?.allowedDomains ?? [];
  return {
    ...(Object.keys(filesystem).length > 0 ? { filesystem } : {}),
    ...(domains.length > 0 ? { network: { allowedDomains: domains } } : {}),
  };
}

/** What the person may allow from a blocked access on a server's card: a file or folder to read or write, or a host. */
export type SandboxAllowance = { kind: 'read' | 'write'; path: string } | { kind: 'host'; host: string };

/** The setting with one more thing allowed; the same setting when it is allowed already. A server opted out needs nothing. */
export function withAllowance(setting: SandboxSetting | undefined, allowance: SandboxAllowance): SandboxSetting {
  if (setting === false) return false;
  const current = setting ?? {};
  const add = (list: string[] | undefined, item: string): string[] => (list?.includes(item) ? list : [...(list ?? []), item]);
  if (allowance.kind === 'host') return { ...current, network: { allowedDomains: add(current.network?.allowedDomains, allowance.host) } };
  const key = allowance.kind === 'read' ? 'allowRead' : 'allowWrite';
  return { ...current, filesystem: { ...current.filesystem, [key]: add(current.filesystem?.[key], allowance.path) } };
}

function isAbsoluteOrHome(path: string): boolean {
  return path.startsWith('/') || path === '~' || path.startsWith('~/') || /^[A-Za-z]:[\\/]/.test(path);
}

/** The grammar of an allowed host: `name`, `*.name`, an IPv4 address or a bracketed IPv6 one, each with an optional `:port`. */
export function isHostPattern(entry: string): boolean {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(entry);
  if (!match) return false;
  const [, host = '', port] = match;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
  if (host.startsWith('[')) return isIP(host.slice(1, -1)) === 6;
  if (isIP(host) === 4) return true;
  const name = host.startsWith('*.') ? host.slice(2) : host;
  return name.length <= 253 && name.split('.').every((label) => /^[a-zA-Z0-9_](?:[a-zA-Z0-9_-]{0,61}[a-zA-Z0-9_])?$/.test(label));
}
