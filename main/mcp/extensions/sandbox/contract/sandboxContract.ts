// The sandbox's section of the contract: whether each local server runs in its sandbox and why, what it
// can touch, what the sandbox blocked, and the person's two choices (allow one blocked thing for one
// server; run a server without the sandbox). Registered with the other sections in shared/contract.ts.

import type { ParamsSchema } from '../../../../../shared/contract/schemaParts.ts';
import { serverId, serverFilter } from '../../../../../shared/contract/schemaParts.ts';

/** What a server's `sandbox` entry in servers.json allows beyond the default profile (VS Code's vocabulary). */
export interface SandboxAllowances {
  filesystem?: { allowRead?: string[]; allowWrite?: string[]; denyRead?: string[] };
  network?: { allowedDomains?: string[] };
}

/** A server's `sandbox` entry: `false` runs it without the sandbox (the person's explicit choice). */
export type SandboxSetting = false | SandboxAllowances;

/** Where a local server stands with the sandbox. */
export type SandboxState = 'sandboxed' | 'not-sandboxed' | 'cannot-start';

/** Something the sandbox kept from a server: a file or folder it tried to read or write, or a host it tried to reach. */
export interface BlockedAccess {
  kind: 'read' | 'write' | 'host';
  /** The path, or host:port, as the server asked for it (the server's doing: untrusted text). */
  target: string;
  /** What "allow for this server" adds to its sandbox; absent when Atrium never allows it (its own data folder). */
  allow?: string;
  /** How often it was blocked since the server started, and when last (epoch ms). */
  count: number;
  at: number;
}

/** What the sandbox kept a server from, as every front end words it before the target: "writing /srv/notes". */
export const KEPT_FROM: Record<BlockedAccess['kind'], string> = { read: 'reading', write: 'writing', host: 'connecting to' };

/** One server's sandbox as the person sees it: on its card, in `atrium servers`, in its start dialog. */
export interface SandboxSummary {
  serverId: string;
  state: SandboxState;
  /** Why, in one sentence: "sandboxed", "you opted it out", "bwrap and socat are missing", … */
  reason: string;
  /** What the server can touch, one line each (for a server outside the sandbox: that it can touch everything). */
  touches: string[];
  /** Where a tool the sandbox needs is missing: what to install, in one line. */
  install?: string;
  /** What the sandbox kept from it since it started, latest first. */
  blocked: BlockedAccess[];
}

/** What each request of this section resolves with; its params are its schema's (`sandboxRequests`). */
export interface SandboxResults {
  /** Every local server's sandbox (one server's, with `serverId`). Remote servers have none. */
  listSandboxes: SandboxSummary[];
  /**
   * "Allow for this server": adds what the sandbox blocked to that server's `sandbox` in servers.json
   * (read, write or a host), approves the server's definition with it when the rest was approved, and
   * restarts it. Only ever on the person's click.
   */
  allowSandboxAccess: SandboxSummary;
  /**
   * The explicit choice to run a server without the sandbox (`"sandbox": false`): it then waits for the
   * person to approve its definition again, the opt-out shown among its risks.
   */
  runWithoutSandbox: null;
}

export interface SandboxEvents {
  /** A server's sandbox changed: it started with a new profile, or something was blocked. */
  sandboxChanged: SandboxSummary;
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const sandboxRequests = {
  listSandboxes: serverFilter,
  allowSandboxAccess: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'kind', 'target'],
    properties: { serverId, kind: { enum: ['read', 'write', 'host'] }, target: { type: 'string', minLength: 1, maxLength: 4096 } },
  },
  runWithoutSandbox: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
} as const satisfies { readonly [K in keyof SandboxResults]: ParamsSchema };

/** A record rather than a list, so an event added to SandboxEvents but not here fails the type-check. */
export const sandboxEvents: { readonly [K in keyof SandboxEvents]: true } = {
  sandboxChanged: true,
};
