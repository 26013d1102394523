// The contract's section for installing servers: searching an MCP Registry, what an entry or a bundle asks
// for, and installing one. An installed server is not trusted and runs nothing until the person approves
// it in its start dialog (reviewServerLaunch shows where it came from and what it can touch).
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { ServerSnapshot } from '../domain.ts';
import type { BundlePlan, InstallPlan, RegistrySearch } from '../installs.ts';
import { BUNDLE_LIMITS } from '../installs.ts';
import type { ParamsSchema } from './schemaParts.ts';
import { typedServerName } from './schemaParts.ts';

export interface InstallsResults {
  /**
   * The registry's entries whose name, title or description hold every word (its latest versions; deleted
   * ones never, deprecated ones with their message), from its whole list — the copy Atrium kept when the
   * registry does not answer, said with its age.
   */
  searchRegistry: RegistrySearch;
  /** One entry: the ways it can run (a package, a remote), each with what it would run and the values it asks for. */
  planRegistryInstall: InstallPlan;
  /** Installs one way of an entry with the values given; the server waits for the person's approval. */
  installFromRegistry: ServerSnapshot;
  /** What a bundle is (its manifest, its hash, that it is unsigned) and the settings it asks for; nothing is written. */
  previewBundle: BundlePlan;
  /** Installs a bundle (unpacked under Atrium's data folder) with the settings given; it waits for the person's approval. */
  installBundle: ServerSnapshot;
  /** Saves the registry Atrium asks when nothing else names one (null: the official MCP Registry). */
  setRegistryAddress: null;
}

export type InstallsEvents = Record<never, never>;

const registry = { type: 'string', minLength: 1, maxLength: 2048, pattern: '^https?://', patternHint: 'an http(s) address', title: 'Registry' } as const;
const entryName = { type: 'string', minLength: 3, maxLength: 200, title: 'Server' } as const;
const version = { type: 'string', minLength: 1, maxLength: 255, title: 'Version' } as const;
const values = { type: 'object', maxProperties: 500, additionalProperties: { type: 'string', maxLength: 100_000 } } as const;
/** A bundle's bytes, base64: the window reads the file the person chose, the host never opens a path it is given. */
// An empty file is let through, to be refused by the bundle's reader in words ("the file is empty").
const bundle = { type: 'string', maxLength: Math.ceil(BUNDLE_LIMITS.fileBytes / 3) * 4 + 4, pattern: '^[A-Za-z0-9+/]*={0,2}$', patternHint: 'a file read as base64' } as const;
const sha256 = { type: 'string', pattern: '^[0-9a-fA-F]{64}$', patternHint: '64 hexadecimal digits', title: 'SHA-256' } as const;

export const installsRequests = {
  searchRegistry: {
    type: 'object',
    additionalProperties: false,
    required: ['words'],
    properties: { words: { type: 'string', maxLength: 500 }, registry, refresh: { type: 'boolean' }, limit: { type: 'integer', minimum: 1, maximum: 100_000 } },
  },
  planRegistryInstall: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: entryName, version, registry } },
  installFromRegistry: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'values'],
    properties: { name: entryName, version, registry, choice: { type: 'integer', minimum: 0, maximum: 100 }, values, serverId: typedServerName },
  },
  previewBundle: { type: 'object', additionalProperties: false, required: ['bundle'], properties: { bundle, sha256 } },
  installBundle: { type: 'object', additionalProperties: false, required: ['bundle', 'values'], properties: { bundle, sha256, values, serverId: typedServerName } },
  setRegistryAddress: { type: 'object', additionalProperties: false, required: ['url'], properties: { url: { oneOf: [registry, { type: 'null' }] } } },
} as const satisfies { readonly [K in keyof InstallsResults]: ParamsSchema };

export const installsEvents: { readonly [K in keyof InstallsEvents]: true } = {};
