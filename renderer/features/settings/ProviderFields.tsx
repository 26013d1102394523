import type { ReactNode } from 'react';
import type { ProviderKind } from '../../../shared/contract.ts';

export const PROVIDER_KINDS: { value: ProviderKind; label: string }[] = [
  { value: 'anthropic', label: 'Anthropic (Messages API)' },
  { value: 'openai', label: 'OpenAI (Chat Completions)' },
  { value: 'openai-responses', label: 'OpenAI (Responses API)' },
  { value: 'openai-compatible', label: 'OpenAI-compatible server (Ollama, LM Studio, vLLM…)' },
];

/** Each API as a sentence names it. */
export const API_NAMES: Record<ProviderKind, string> = {
  anthropic: 'the Anthropic Messages API',
  openai: 'the OpenAI Chat Completions API',
  'openai-responses': 'the OpenAI Responses API',
  'openai-compatible': 'an OpenAI-compatible server’s API',
};

/** What the API, Base URL and Models fields hold, as typed. */
export interface ProviderDraft {
  kind: ProviderKind;
  baseUrl: string;
  models: string;
}

/** The draft as the request sends it: blank fields left out, models split at commas. */
export function providerOfDraft(draft: ProviderDraft): { kind: ProviderKind; baseUrl?: string; models?: string[] } {
  const models = draft.models.split(',').map((m) => m.trim()).filter(Boolean);
  return { kind: draft.kind, ...(draft.baseUrl.trim() ? { baseUrl: draft.baseUrl.trim() } : {}), ...(models.length ? { models } : {}) };
}

interface ProviderFieldsProps {
  draft: ProviderDraft;
  onChange(draft: ProviderDraft): void;
  /** The invalid state and message of each field, from the form's problems. */
  describe(field: string): Record<string, unknown>;
  problem(field: string): ReactNode;
}

/** The fields Add a provider and Edit share: which API, where it answers, the models to offer. */
export function ProviderFields({ draft, onChange, describe, problem }: ProviderFieldsProps) {
  return (
    <>
      <label className="field">
        API
        <select
          value={draft.kind}
          onChange={(event) => onChange({ ...draft, kind: PROVIDER_KINDS.find((k) => k.value === event.target.value)?.value ?? draft.kind })}
          {...describe('provider.kind')}
        >
          {PROVIDER_KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      {problem('provider.kind')}
      <label className="field">
        Base URL (for a compatible server or a proxy)
        <input value={draft.baseUrl} placeholder="http://127.0.0.1:11434/v1" onChange={(event) => onChange({ ...draft, baseUrl: event.target.value })} {...describe('provider.baseUrl')} />
      </label>
      {problem('provider.baseUrl')}
      <label className="field">
        Models to offer when the API cannot list them (comma-separated)
        <input value={draft.models} onChange={(event) => onChange({ ...draft, models: event.target.value })} {...describe('provider.models')} />
      </label>
      {problem('provider.models')}
    </>
  );
}
