// What the sandbox kept from a server, found in two places: the proxy's refusals (a host it tried to
// reach: the library records each with the launch's id), and the server's own error lines, which name the
// file it could not read or write and the host it could not resolve or connect to (inside the sandbox
// the home folder is empty, the system read-only, and no address answers but the proxy). An error line
// is the server's word, so it only counts where the sandbox explains it: the path exists outside but is
// hidden or read-only inside. Either way nothing is allowed until the person clicks.

import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { BlockedAccess } from './contract/sandboxContract.ts';
import type { SandboxProfile } from './sandboxProfile.ts';
import { isAtOrInside } from './sandboxProfile.ts';

type Sandboxed = Extract<SandboxProfile, { kind: 'sandboxed' }>;
export type Blocked = Pick<BlockedAccess, 'kind' | 'target' | 'allow'>;

const PROXY_REFUSAL = /^deny network-outbound (.+):(\d+) \(/;
const MISSING = /\b(ENOENT|Errno 2\b|No such file or directory)/;
const REFUSED = /\b(EACCES|EPERM|Errno 13\b|Errno 1\b|Permission denied|Operation not permitted)/;
const READ_ONLY = /\b(EROFS|Errno 30\b|Read-only file system)/;
/** An absolute path in quotes, or bare before a colon (`cat: /x/y: No such file`) or at the end of the line. */
const PATH = /['"`](\/[^'"`\n]*)['"`]|(?:^|\s)(\/[^\s:'"`]+)(?::|$)/;
const CONNECT = /\b(?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH)\s+(\[[0-9a-fA-F:]+\]|[\d.]+):(\d+)/;
const RESOLVE = /\b(?:getaddrinfo|Failed to resolve|Name or service not known)\b.*?\b(?:EAI_AGAIN|ENOTFOUND|EAI_NONAME)?\s*'?([a-zA-Z0-9][a-zA-Z0-9.-]*\.[a-zA-Z]{2,})'?/;

/** A host the proxy refused, from the library's line; undefined for any other line. */
export function proxyRefusal(line: string): Blocked | undefined {
  const match = PROXY_REFUSAL.exec(line);
  if (!match) return undefined;
  return hostBlocked(match[1] ?? '', Number(match[2]));
}

/** What the server's error line says the sandbox kept from it, when the sandbox explains it. */
export function stderrHint(line: string, profile: Sandboxed, dataFolder: string): Blocked | undefined {
  const connect = CONNECT.exec(line);
  if (connect) return hostBlocked(connect[1] ?? '', Number(connect[2]));
  const path = PATH.exec(line);
  const target = path?.[1] ?? path?.[2];
  if (target !== undefined) {
    if (READ_ONLY.test(line) && !writable(target, profile)) return { kind: 'write', target, ...allowance(writeAllowance(target), dataFolder) };
    if ((MISSING.test(line) || REFUSED.test(line)) && hidden(target, profile) && existsSync(target)) {
      return { kind: 'read', target, ...allowance(target, dataFolder) };
    }
    if (REFUSED.test(line) && !writable(target, profile) && /\b(write|open|mkdir|rename|unlink|creat)/i.test(line)) return { kind: 'write', target, ...allowance(writeAllowance(target), dataFolder) };
  }
  const resolve = RESOLVE.exec(line);
  if (resolve?.[1] !== undefined && !profile.hosts.includes(resolve[1])) return { kind: 'host', target: resolve[1], allow: resolve[1] };
  return undefined;
}

function hostBlocked(host: string, port: number): Blocked {
  // A name on the web's ports is allowed by name; an address, or another port, only as it was asked for.
  const byName = /[a-zA-Z]/.test(host) && !host.startsWith('[') && (port === 443 || port === 80);
  return { kind: 'host', target: `${host}:${port}`, allow: byName ? host : `${host}:${port}` };
}

function hidden(path: string, profile: Sandboxed): boolean {
  return profile.hidden.some((area) => isAtOrInside(path, area)) && !profile.readable.some((open) => isAtOrInside(path, open));
}

function writable(path: string, profile: Sandboxed): boolean {
  if (profile.writable.some((open) => isAtOrInside(path, open))) return true;
  // Its own /tmp (and /dev, /proc) it writes, but for what is bound there read-only: a folder its arguments name.
  return /^\/(dev|proc|tmp)(\/|$)/.test(path) && !profile.readable.some((open) => isAtOrInside(path, open));
}

/** A file that is not there yet is written by writing its folder. */
function writeAllowance(path: string): string {
  try {
    return statSync(path).isDirectory() || existsSync(path) ? path : dirname(path);
  } catch {
    return dirname(path);
  }
}

/** Atrium's own data folder is never offered. */
function allowance(path: string, dataFolder: string): { allow?: string } {
  return isAtOrInside(path, dataFolder) ? {} : { allow: path };
}
