// The LLM providers a person configured, in `providers.json` beside `servers.json`:
//   { "providers": [ { "id": "claude", "kind": "anthropic", "apiKeySecret": "anthropic", "models": [...] },
//                    { "id": "local", "kind": "openai-compatible", "baseUrl": "http://127.0.0.1:11434/v1" } ],
//     "default": { "provider": "claude", "model": "claude-sonnet-4-5" },
//     "approvals": { "tools": "ask", "sampling": "ask" } }
// Keys are never in this file: `apiKeySecret` names the secret that holds one. It is the host's one
// settings file, so it also keeps the tool-count threshold and how calls and sampling are approved.

import { join } from 'node:path';
import { Ajv } from 'ajv';
import type { ApprovalChoices, ProviderKind } from '../../shared/contract.ts';
import { providerKinds, samplingChoices, toolApprovalChoices } from '../../shared/contract.ts';
import { DamagedData, jsonRecovery, readDataFile, writeFileAtomically } from '../store/dataFile.ts';
import { jsonProblem } from '../store/jsonProblem.ts';
import type { ModelTraits } from '../host/sampling/modelChoice.ts';
import type { ProviderConfig } from './llmTypes.ts';

export interface ProviderSettings {
  providers: ProviderConfig[];
  default?: { provider: string; model: string };
  /** More tools than this, and the model gets a tool-search tool instead of all of them (default 64). */
  toolThreshold?: number;
  /** How costly, fast and capable each model is (0..1), for sampling's model choice; guessed from names otherwise. */
  modelTraits?: Record<string, Partial<ModelTraits>>;
  /** How tool calls and servers' sampling requests are approved, as chosen in Settings; absent = the defaults. */
  approvals?: Partial<ApprovalChoices>;
}

const schema = {
  type: 'object',
  properties: {
    providers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'kind'],
        properties: {
          // A provider's key is the secret named by its id (or apiKeySecret); the names of servers'
          // sign-in entries (main/mcp/auth/credentialVault.ts) are never a provider's key.
          id: { type: 'string', minLength: 1, maxLength: 100, pattern: '^(?!mcp-oauth:)' },
          kind: { enum: providerKinds },
          baseUrl: { type: 'string', pattern: '^https?://' },
          apiKeySecret: { type: 'string', minLength: 1, maxLength: 100, pattern: '^(?!mcp-oauth:)' },
          models: { type: 'array', items: { type: 'string', minLength: 1 } },
          imageGeneration: { type: 'boolean' },
        },
        additionalProperties: false,
      },
    },
    toolThreshold: { type: 'integer', minimum: 1, maximum: 10_000 },
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
  },
} as const;

const validate = new Ajv({ allErrors: false, strict: false }).compile(schema);

export class ProviderSettingsError extends Error {
  readonly code = 'failed';
}

export const PROVIDERS_FILE_NAME = 'providers.json';

/** The settings in providers.json; a missing file is no providers, and a damaged one is moved aside (reported) and read as none. */
export async function loadProviderSettings(home: string): Promise<ProviderSettings> {
  const settings = await readDataFile({
    path: join(home, PROVIDERS_FILE_NAME),
    keepLastGood: true,
    withoutIt: 'Atrium started with no model providers and its default settings',
    recovery: jsonRecovery(PROVIDERS_FILE_NAME, 'Carry on without it: add your providers again in Settings (the keys you stored are kept).'),
    parse: (bytes) => {
      const problem = jsonProblem(bytes);
      if (problem) throw new DamagedData(problem);
      const json: unknown = JSON.parse(bytes.toString('utf8'));
      if (!validate(json)) {
        const first = validate.errors?.[0];
        throw new DamagedData(`${first?.instancePath ? `"${first.instancePath.slice(1).replaceAll('/', '.')}"` : 'the file'} ${first?.message ?? 'is not valid'}`);
      }
      return json as ProviderSettings;
    },
  });
  return settings ?? { providers: [] };
}

/** Writes the settings to providers.json (atomically: a crash leaves the old file or the new, never half). */
export async function saveProviderSettings(home: string, settings: ProviderSettings): Promise<void> {
  if (!validate(settings)) throw new ProviderSettingsError(`the provider settings are invalid: ${validate.errors?.[0]?.message ?? 'unknown problem'}`);
  await writeFileAtomically(join(home, PROVIDERS_FILE_NAME), `${JSON.stringify(settings, null, 2)}\n`);
}

export interface ProviderChoice {
  /** A configured provider id, or a kind (anthropic | openai | openai-compatible | openai-responses) for one made from flags. */
  provider?: string;
  model?: string;
  baseUrl?: string;
}

const KINDS: readonly ProviderKind[] = providerKinds;

/**
 * Why no model can be used, in the words of the window (Settings, the model picker); `commandLine` says
 * the same for the CLI, whose flags the window has not got.
 */
export class ModelChoiceError extends ProviderSettingsError {
  readonly commandLine: string;
  /** The provider that has no model yet, when that is the problem: listing its models may give one. */
  readonly modelless: ProviderConfig | undefined;
  constructor(message: string, commandLine: string, modelless?: ProviderConfig) {
    super(message);
    this.commandLine = commandLine;
    this.modelless = modelless;
  }
}

/** The provider a new conversation uses: the default's, else the first configured. */
export function defaultProviderId(settings: ProviderSettings): string | undefined {
  return settings.default?.provider ?? settings.providers[0]?.id;
}

/** The model a provider answers with when none is picked: the default's, else the first configured, else the first its API listed. */
export function defaultModelOf(settings: ProviderSettings, providerId: string, configured: readonly string[] | undefined, listed: readonly string[] | undefined): string | undefined {
  return (settings.default?.provider === providerId ? settings.default.model : undefined) ?? configured?.[0] ?? listed?.[0];
}

/**
 * Which provider and model a turn uses: the flags (or the person's pick), else the conversation's, else
 * the settings' default; a provider without a default model uses the first it offers (`listed`, what its
 * API answered when asked). Every front end and sampling decide with this one function.
 */
export function chooseProvider(settings: ProviderSettings, choice: ProviderChoice, listed: (providerId: string) => readonly string[] | undefined = () => undefined): { config: ProviderConfig; model: string } {
  const wanted = choice.provider ?? defaultProviderId(settings);
  if (wanted === undefined) {
    throw new ModelChoiceError(
      'no model provider is set up yet: add one in Settings (Model providers)',
      'no LLM provider is configured: add one to providers.json, or pass --provider anthropic|openai|openai-compatible|openai-responses --model M',
    );
  }
  const configured = settings.providers.find((p) => p.id === wanted);
  const config: ProviderConfig | undefined = configured
    ? { ...configured, ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}) }
    : (KINDS as readonly string[]).includes(wanted)
      ? { id: wanted, kind: wanted as ProviderKind, apiKeySecret: wanted, ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}) }
      : undefined;
  const known = settings.providers.map((p) => p.id).join(', ') || 'none';
  if (!config) {
    const next = settings.providers.length > 0 ? `pick another model (set up: ${known})` : 'add a provider in Settings (Model providers)';
    throw new ModelChoiceError(`there is no provider "${wanted}" any more: ${next}`, `there is no provider "${wanted}" in providers.json (configured: ${known})`);
  }
  if (config.kind === 'openai-compatible' && !config.baseUrl) {
    throw new ModelChoiceError(
      `provider "${config.id}" is OpenAI-compatible and needs a base URL: add it again in Settings with its base URL`,
      `provider "${config.id}" is OpenAI-compatible and needs a base URL (--base-url http://127.0.0.1:11434/v1 for Ollama)`,
    );
  }
  const model = choice.model ?? defaultModelOf(settings, config.id, config.models, listed(config.id));
  if (!model) {
    throw new ModelChoiceError(
      `provider "${config.id}" has no model to use: its models could not be listed (check its key and address in Settings), and none were given when it was added`,
      `no model chosen for provider "${config.id}": its models could not be listed (check its key and --base-url); pass --model, or set "default" or "models" in providers.json`,
      config,
    );
  }
  return { config, model };
}
