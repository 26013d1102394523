// The contract's section for settings: model providers and their keys, the default model, how calls and sampling are approved.
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { ParamsSchema } from './schemaParts.ts';
import { noParams } from './schemaParts.ts';

export interface ProviderSettingsView {
  providers: { id: string; kind: ProviderKind; baseUrl?: string; models?: string[]; imageGeneration?: boolean; hasKey: boolean }[];
  default?: { provider: string; model: string };
  toolThreshold?: number;
  /** The share of the model's context (percent) tool definitions may take before the model searches for tools (default 25). */
  toolContextPercent?: number;
  /** The choices saved in Settings, or the defaults where none was saved. */
  approvals: ApprovalChoices;
  /** Whether keys entered here can be kept (encrypted); else they come from the environment. */
  canStoreKeys: boolean;
  /**
   * Why keys kept here are not well protected (no usable OS keychain), for the person to read before
   * choosing; with `canStoreKeys`, a key is then stored only if they accept it.
   */
  keyStorageWarning?: string;
}

/**
 * The APIs a provider can speak: 'anthropic' (Messages), 'openai' (Chat Completions), 'openai-compatible'
 * (Chat Completions at a base URL: Ollama, llama.cpp, LM Studio, vLLM), 'openai-responses' (Responses, images out).
 */
export const providerKinds = ['anthropic', 'openai', 'openai-compatible', 'openai-responses'] as const;

export type ProviderKind = (typeof providerKinds)[number];

/**
 * How tool calls are approved when no saved permission decides: 'ask' unless a trusted server marks the
 * tool read-only (the annotation policy), 'ask-every' call, or deny every one ('none'). Allowing every call
 * without asking is not a saved choice: the CLI's `--approve all` does it for one run.
 */
export const toolApprovalChoices = ['ask', 'ask-every', 'none'] as const;

export type ToolApprovalChoice = (typeof toolApprovalChoices)[number];

/** Servers' sampling requests: 'ask' the person each time, or 'deny' (refuse) every one. */
export const samplingChoices = ['ask', 'deny'] as const;

export type SamplingChoice = (typeof samplingChoices)[number];

export interface ApprovalChoices {
  tools: ToolApprovalChoice;
  sampling: SamplingChoice;
}

export interface ProviderView {
  id: string;
  kind: ProviderKind;
  models: string[];
  /** The model a message to this provider uses when none is picked (absent only when it offers none). */
  defaultModel?: string;
  /** Set on the provider a new conversation uses. */
  isDefault?: true;
  /** Why the models could not be listed; the configured ones are shown instead. */
  error?: string;
}

/** What each request of this section resolves with; its params are its schema's (`settingsRequests`). */
export interface SettingsResults {
  /** Providers (with whether each has a key, never the key), the default model, the tool-count threshold, the approval choices. */
  getSettings: ProviderSettingsView;
  /**
   * Adds or replaces a provider; a key given is stored encrypted and is never sent back. Where the key
   * store is weak (`keyStorageWarning` with `canStoreKeys`), a key is stored only with `acceptWeakKeyStorage`.
   */
  saveProvider: null;
  removeProvider: null;
  /** Saves what is given: the default model, the tool-count threshold, how tool calls and sampling requests are approved. */
  saveDefaults: null;
  /** The configured LLM providers and their models, for the model picker. */
  listProviders: ProviderView[];
}

export interface SettingsEvents {
  /** The settings as saved now: providers (with whether each has a key), the default model, the approval choices. */
  settingsChanged: ProviderSettingsView;
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const settingsRequests = {
  getSettings: noParams,
  saveProvider: {
    type: 'object',
    additionalProperties: false,
    required: ['provider'],
    properties: {
      provider: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'kind'],
        properties: {
          id: {
            type: 'string',
            title: 'Name',
            minLength: 1,
            pattern: '^[a-z0-9][a-z0-9-]{0,39}$',
            patternHint: 'may use only lowercase letters, digits and dashes, starting with a letter or digit, up to 40 characters (for example "claude" or "local-llm")',
          },
          kind: { enum: providerKinds, title: 'API' },
          baseUrl: { type: 'string', title: 'Base URL', pattern: '^https?://', patternHint: 'must start with http:// or https:// (for example http://127.0.0.1:11434/v1)', maxLength: 500 },
          models: { type: 'array', title: 'Models', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 200 } },
          imageGeneration: { type: 'boolean' },
        },
      },
      key: { type: 'string', title: 'API key', minLength: 1, maxLength: 1000 },
      acceptWeakKeyStorage: { type: 'boolean' },
    },
  },
  removeProvider: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
  saveDefaults: {
    type: 'object',
    additionalProperties: false,
    properties: {
      default: {
        type: 'object',
        additionalProperties: false,
        required: ['provider', 'model'],
        properties: { provider: { type: 'string', minLength: 1, maxLength: 100 }, model: { type: 'string', minLength: 1, maxLength: 200 } },
      },
      toolThreshold: { type: 'integer', minimum: 1, maximum: 10_000 },
      toolContextPercent: { type: 'integer', minimum: 1, maximum: 100 },
      approvals: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { tools: { enum: toolApprovalChoices }, sampling: { enum: samplingChoices } },
      },
    },
  },
  listProviders: noParams,
} as const satisfies { readonly [K in keyof SettingsResults]: ParamsSchema };

/** A record rather than a list, so an event added to SettingsEvents but not here fails the type-check. */
export const settingsEvents: { readonly [K in keyof SettingsEvents]: true } = {
  settingsChanged: true,
};
