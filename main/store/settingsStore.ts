// The host's settings — the LLM providers a person configured, the default model, the tool-count
// threshold, how tool calls and sampling are approved — owned by one store over `providers.json`
// beside `servers.json`:
//   { "providers": [ { "id": "claude", "kind": "anthropic", "apiKeySecret": "anthropic", "models": [...] },
//                    { "id": "local", "kind": "openai-compatible", "baseUrl": "http://127.0.0.1:11434/v1" } ],
//     "default": { "provider": "claude", "model": "claude-sonnet-4-5" },
//     "approvals": { "tools": "ask", "sampling": "ask" } }
// Keys are never in this file: `apiKeySecret` names the secret that holds one.
//
// Everyone reads the current snapshot, which is never changed in place: a change is written to the file
// first (atomically, under its lock, on top of what the file holds now) and only then becomes the
// snapshot, and every listener hears of it — so what runs is always what is saved, and a window shows
// what changed elsewhere (another window, the CLI's run, the person's editor: the file is followed).

import { join } from 'node:path';
import { ownSchemaValidator } from '../ownSchemas.ts';
import type { ApprovalChoices, ProviderKind } from '../../shared/contract.ts';
import { providerKinds, samplingChoices, toolApprovalChoices } from '../../shared/contract.ts';
import { DamagedData, jsonRecovery, loadDataFile, readDataFile, updateDataFile } from './dataFile.ts';
import type { DataFileRead, DataFileSpec } from './dataFile.ts';
import { jsonFileText, jsonProblem } from '../../shared/jsonProblem.ts';
import { watchFile } from './fileWatch.ts';

export interface ProviderConfig {
  id: string;
  kind: ProviderKind;
  /** For OpenAI-compatible servers (Ollama, llama.cpp, LM Studio, vLLM) and for tests. */
  baseUrl?: string;
  /** The name under which the API key is kept in the secrets store; never the key itself. */
  apiKeySecret?: string;
  /** Models to offer when the API cannot list them. */
  models?: string[];
  /** Responses API only: offer the model OpenAI's image generation tool, so it can answer with images. */
  imageGeneration?: boolean;
}

/** 0..1 each: how expensive, how fast, how capable. */
export interface ModelTraits {
  cost: number;
  speed: number;
  intelligence: number;
}

/** The settings as saved. A snapshot is frozen: change them with SettingsStore.update. */
export interface ProviderSettings {
  providers: ProviderConfig[];
  default?: { provider: string; model: string };
  /** More tools than this, and the model gets a tool-search tool instead of all of them (default 64). */
  toolThreshold?: number;
  /** The share of the model's context, in percent, tool definitions may take before the model searches instead (default 25). */
  toolContextPercent?: number;
  /** How costly, fast and capable each model is (0..1), for sampling's model choice; guessed from names otherwise. */
  modelTraits?: Record<string, Partial<ModelTraits>>;
  /** How tool calls and servers' sampling requests are approved, as chosen in Settings; absent = the defaults. */
  approvals?: Partial<ApprovalChoices>;
  /** The MCP Registry Atrium asks when nothing else names one; absent = the official one. */
  registryUrl?: string;
}

/** The shape of providers.json (exported for ownSchemas.test.ts, which checks it against the meta-schema). */
export const providerSettingsSchema = {
  type: 'object',
  properties: {
    providers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'kind'],
        properties: {
          // A provider's key is the secret named by its id (or apiKeySecret); the names of servers'
          // sign-in entries (main/mcp/auth/credentialVault.ts), of the addresses stored keys were set for
          // (main/chat/providerKeys.ts) and of installed servers' secrets (mcp-server:) are never a provider's key.
          id: { type: 'string', minLength: 1, maxLength: 100, pattern: '^(?!mcp-oauth:|provider-key-address:|mcp-server:)' },
          kind: { enum: providerKinds },
          baseUrl: { type: 'string', pattern: '^https?://' },
          apiKeySecret: { type: 'string', minLength: 1, maxLength: 100, pattern: '^(?!mcp-oauth:|provider-key-address:|mcp-server:)' },
          models: { type: 'array', items: { type: 'string', minLength: 1 } },
          imageGeneration: { type: 'boolean' },
        },
        additionalProperties: false,
      },
    },
    toolThreshold: { type: 'integer', minimum: 1, maximum: 10_000 },
    toolContextPercent: { type: 'integer', minimum: 1, maximum: 100 },
    modelTraits: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { cost: { type: 'number', minimum: 0, maximum: 1 }, speed: { type: 'number', minimum: 0, maximum: 1 }, intelligence: { type: 'number', minimum: 0, maximum: 1 } },
        additionalProperties: false,
      },
    },
    default: {
      type: 'object',
      required: ['provider', 'model'],
      properties: { provider: { type: 'string' }, model: { type: 'string' } },
      additionalProperties: false,
    },
    approvals: {
      type: 'object',
      properties: { tools: { enum: toolApprovalChoices }, sampling: { enum: samplingChoices } },
      additionalProperties: false,
    },
    registryUrl: { type: 'string', pattern: '^https?://' },
  },
} as const;

const validate = ownSchemaValidator(providerSettingsSchema, { allErrors: false, strict: false });

/** Settings that cannot be kept as asked (they break the file's own rules). */
export class ProviderSettingsError extends Error {
  readonly code = 'failed';
}

export const PROVIDERS_FILE_NAME = 'providers.json';

/** providers.json as Atrium's data file: a damaged one is moved aside (or, met by a one-shot command, left where it is). */
function providersSpec(home: string): DataFileSpec<ProviderSettings> {
  return {
    path: join(home, PROVIDERS_FILE_NAME),
    keepLastGood: true,
    editedByPerson: true,
    withoutIt: 'Atrium started with no model providers and its default settings',
    whileDamaged: 'Atrium keeps the settings it had',
    recovery: jsonRecovery(PROVIDERS_FILE_NAME, 'Carry on without it: add your providers again in Settings (the keys you stored are kept).', { takenUpWhileRunning: true }),
    parse: (bytes) => {
      const problem = jsonProblem(bytes);
      if (problem) throw new DamagedData(problem);
      const json: unknown = JSON.parse(jsonFileText(bytes));
      if (!validate(json)) {
        const first = validate.errors?.[0];
        throw new DamagedData(`${first?.instancePath ? `"${first.instancePath.slice(1).replaceAll('/', '.')}"` : 'the file'} ${first?.message ?? 'is not valid'}`);
      }
      return json as ProviderSettings;
    },
  };
}

/** The settings in providers.json; a missing file is no providers, and a damaged one is moved aside (reported) and read as none. */
export async function loadProviderSettings(home: string): Promise<ProviderSettings> {
  return (await readDataFile(providersSpec(home))) ?? { providers: [] };
}

/** providers.json as it is now, left where it is if it cannot be read (a one-shot command's check before it starts). */
export function readProvidersFile(home: string): Promise<DataFileRead<ProviderSettings>> {
  return loadDataFile(providersSpec(home), { ifDamaged: 'leave' });
}

/** A frozen copy: the snapshot everyone reads can never be changed behind the store's back. */
function frozen(settings: ProviderSettings): Readonly<ProviderSettings> {
  return deepFreeze(structuredClone(settings));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

export class SettingsStore {
  private readonly home: string;
  private snapshot: Readonly<ProviderSettings>;
  /** The digest of providers.json as last read or written (null: not read), to tell a change made elsewhere. */
  private digest: string | null;
  private readonly listeners = new Set<(settings: Readonly<ProviderSettings>) => void>();
  /** Changes are written one at a time, each over the snapshot the one before left. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Opened from the file (not settings given for the run): the file's later changes are taken up. */
  private readonly followsFile: boolean;

  private constructor(home: string, settings: ProviderSettings, digest: string | null, followsFile: boolean) {
    this.home = home;
    this.snapshot = frozen(settings);
    this.digest = digest;
    this.followsFile = followsFile;
  }

  /** The home's providers.json (a damaged one is moved aside, reported, and read as none), or the settings given for this run. */
  static async open(home: string, given?: ProviderSettings): Promise<SettingsStore> {
    if (given) return new SettingsStore(home, given, null, false);
    const read = await loadDataFile(providersSpec(home));
    return read.kind === 'read' ? new SettingsStore(home, read.value, read.digest, true) : new SettingsStore(home, { providers: [] }, null, true);
  }

  current(): Readonly<ProviderSettings> {
    return this.snapshot;
  }

  /**
   * Saves the settings `change` makes of the current ones: written to the file first; only once that
   * worked do they become the snapshot and do listeners hear of them. The file is changed under its
   * lock, and settings saved there meanwhile by someone else (the person's editor, another Atrium) are
   * taken up first, so `change` is made on top of them rather than over them. A change that breaks the
   * file's rules, a file that cannot be read now, or a write that fails leaves the snapshot as it was
   * and throws.
   */
  update(change: (current: Readonly<ProviderSettings>) => ProviderSettings): Promise<Readonly<ProviderSettings>> {
    const next = this.writing.then(async () => {
      let wanted: ProviderSettings = { providers: [] };
      const written = await updateDataFile(providersSpec(this.home), (current) => {
        if (current.kind === 'read' && current.digest !== this.digest) this.take(current.value, current.digest);
        wanted = change(this.snapshot);
        if (!validate(wanted)) throw new ProviderSettingsError(`the provider settings are invalid: ${validate.errors?.[0]?.message ?? 'unknown problem'}`);
        return `${JSON.stringify(wanted, null, 2)}\n`;
      });
      this.take(wanted, written.kind === 'read' ? written.digest : null);
      return this.snapshot;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  /**
   * Follows providers.json while the host runs: an edit saved there (the person's editor, another
   * Atrium) becomes the snapshot and every listener hears of it; a file broken there leaves the settings
   * as they were (and is listed until it is fixed). Settings given for the run are not the file's, and
   * are not replaced by it. Returns the way to stop, which settles once a read under way has finished:
   * a read writes the last good copy, and nothing may be written in the folder once the host has stopped.
   */
  follow(): () => Promise<void> {
    if (!this.followsFile) return () => Promise.resolve();
    const refresh = () => void this.refresh().catch(() => undefined);
    const watch = watchFile(join(this.home, PROVIDERS_FILE_NAME), refresh);
    // What changed between the first read and the watch starting is not missed.
    refresh();
    return async () => {
      watch.close();
      await this.writing;
    };
  }

  private refresh(): Promise<void> {
    const next = this.writing.then(async () => {
      const read = await loadDataFile(providersSpec(this.home), { ifDamaged: 'leave' });
      if (read.kind === 'read' && read.digest !== this.digest) this.take(read.value, read.digest);
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** The settings as they now are, and every listener hears of them. */
  private take(settings: ProviderSettings, digest: string | null): void {
    this.snapshot = frozen(settings);
    this.digest = digest;
    for (const listener of this.listeners) listener(this.snapshot);
  }

  /** Calls `listener` after every saved change; returns the function that stops it. */
  onChange(listener: (settings: Readonly<ProviderSettings>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
