// The contract's section for settings: model providers and their keys, the default model, how calls and sampling are approved.
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { ParamsSchema } from './schemaParts.ts';
import { noParams } from './schemaParts.ts';

/** A configured provider as the window sees it: where it sends its requests and whether a key goes with them, never the key. */
export interface ConfiguredProviderView {
  id: string;
  kind: ProviderKind;
  baseUrl?: string;
  models?: string[];
  imageGeneration?: boolean;
  /** Where its requests, and its key, go: its base URL, else its API's own address (absent: it needs a base URL). */
  address?: string;
  /** Whether a key is sent with its requests. */
  hasKey: boolean;
  /**
   * Where its key comes from: typed in Settings and kept encrypted, or Atrium's environment (one of
   * `variables`), which Settings cannot change. A stored key with `heldFor` is not sent: it was set for
   * that address, and the provider now points elsewhere (its address was changed outside Settings).
   */
  key?: { source: 'stored'; heldFor?: string } | { source: 'environment'; variables: string[] };
}

export interface ProviderSettingsView {
  providers: ConfiguredProviderView[];
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

/** What became of a provider's stored key when it was edited. */
export interface ProviderEdit {
  /**
   * 'moved': it goes to the new address, as the person agreed; 'dropped': it was removed because the
   * address it goes to changed; 'unchanged' also when there is none, or it comes from the environment.
   */
  key: 'unchanged' | 'replaced' | 'removed' | 'moved' | 'dropped';
}

/** What a connection test found, in a sentence for the person (never the key). */
export interface ProviderCheck {
  /** The provider answered the request with its models. */
  ok: boolean;
  message: string;
  /** The models it listed. */
  models?: string[];
}

/** What each request of this section resolves with; its params are its schema's (`settingsRequests`). */
export interface SettingsResults {
  /** Providers (with whether each has a key, never the key), the default model, the tool-count threshold, the approval choices. */
  getSettings: ProviderSettingsView;
  /**
   * Adds a provider; one whose name is taken is refused (edit that one instead). A key given is stored
   * encrypted, for the provider's address only, and is never sent back. Where the key store is weak
   * (`keyStorageWarning` with `canStoreKeys`), a key is stored only with `acceptWeakKeyStorage`.
   */
  saveProvider: null;
  /**
   * Changes a provider's API, base URL or models, and its key: `key` replaces it, `removeKey` removes it.
   * When the address its key goes to changes (the API or the base URL), the stored key is removed unless
   * `keepKey` names the address it was set for and the new one: the person agreed to send it there.
   */
  editProvider: ProviderEdit;
  removeProvider: null;
  /** Asks the provider, with its key as stored and the client the chat uses, for its models: what happened, in words. */
  testProvider: ProviderCheck;
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
  editProvider: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'provider'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 100 },
      provider: {
        type: 'object',
        additionalProperties: false,
        required: ['kind'],
        properties: {
          kind: { enum: providerKinds, title: 'API' },
          baseUrl: { type: 'string', title: 'Base URL', pattern: '^https?://', patternHint: 'must start with http:// or https:// (for example http://127.0.0.1:11434/v1)', maxLength: 500 },
          models: { type: 'array', title: 'Models', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 200 } },
          imageGeneration: { type: 'boolean' },
        },
      },
      key: { type: 'string', title: 'New API key', minLength: 1, maxLength: 1000 },
      removeKey: { type: 'boolean' },
      keepKey: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'to'],
        properties: { from: { type: 'string', minLength: 1, maxLength: 500 }, to: { type: 'string', minLength: 1, maxLength: 500 } },
      },
      acceptWeakKeyStorage: { type: 'boolean' },
    },
  },
  removeProvider: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
  testProvider: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
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
