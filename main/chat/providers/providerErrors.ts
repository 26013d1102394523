// What the LLM SDKs throw, turned into LlmError sentences a person can act on, for every provider.
// The Anthropic and OpenAI SDKs come from one generator, so their error classes have the same shape;
// each provider hands over its own classes and the few wordings where its API differs.

import { LlmError } from '../llmTypes.ts';
import type { ProviderConfig } from '../llmTypes.ts';
import { secretVariables } from '../../store/secrets.ts';
import type { SecretSource } from '../../store/secrets.ts';
import { networkFailureOf } from '../../../shared/networkFailure.ts';
import { isRecord } from '../../../shared/isRecord.ts';

type ErrorClass<E extends Error = Error> = abstract new (...args: never[]) => E;

/** The part of an SDK's APIError read here. */
export interface SdkApiError extends Error {
  readonly status?: number | undefined;
}

export interface ProviderErrorContext<E extends SdkApiError = SdkApiError> {
  /** How sentences name the provider, e.g. `Anthropic provider "work"`. */
  label: string;
  baseURL: string;
  /** The key that was sent, scrubbed from anything the server echoes; undefined when nothing secret was sent. */
  key: string | undefined;
  /** The name of the secret that holds the key, for the advice after a 401. */
  apiKeySecret: string | undefined;
  /** The model asked for, named when the server does not know it. */
  model?: string;
  sdk: { APIError: ErrorClass<E>; APIConnectionError: ErrorClass; APIConnectionTimeoutError: ErrorClass };
  /** The server's own words in an API error, when its body has them. */
  serverMessage: (error: E) => string | null | undefined;
  /** Advice after "cannot reach <baseURL>.". */
  unreachableHint: string;
  /** The request went without a key (a local server may need none), so a 401 asks for one instead of blaming it. */
  keyless?: boolean;
  /** Advice after a 404. */
  notFoundHint?: string;
  /** Wording after the label for statuses this API gives a meaning of its own; `says` is what the server said. */
  statusWording?: Partial<Record<number, (says: string) => string>>;
}

/** What sentences that are not about an SDK error need. */
export type ProviderNaming = Pick<ProviderErrorContext, 'label' | 'baseURL' | 'model'>;

/** A sentence a person understands; the key is scrubbed from anything the server echoed, and no SDK error (which may quote it) is kept as the cause. */
export function toLlmError<E extends SdkApiError>(providerId: string, error: unknown, context: ProviderErrorContext<E>): LlmError {
  const { label: who, baseURL, sdk } = context;
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new LlmError(providerId, `${who}: timed out waiting for ${baseURL}.`);
  }
  if (error instanceof sdk.APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause : undefined;
    const code = networkFailureOf(cause);
    // fetch never connects to the ports the web keeps for other services (1, 9, 6000, …).
    if (code === 'bad port') return new LlmError(providerId, `${who}: cannot reach ${baseURL}: no web client connects to that port, which belongs to another service. Use the port the server answers at.`);
    return new LlmError(providerId, `${who}: cannot reach ${baseURL}${code ? ` (${code})` : ''}. ${context.unreachableHint}`, cause ? { cause } : undefined);
  }
  if (error instanceof sdk.APIError) {
    const detail = scrubKey(context.serverMessage(error) ?? error.message, context.key);
    const status = error.status;
    const says = detail ? `: ${detail}${/[.!?]$/.test(detail) ? '' : '.'}` : '.';
    const known = (message: string) => new LlmError(providerId, `${who}${message}`, status === undefined ? undefined : { status });
    if (status === undefined) return known(`: the reply stream failed${says}`);
    const own = context.statusWording?.[status];
    if (own) return known(own(says));
    switch (status) {
      case 401:
        return known(
          context.keyless
            ? ` wants an API key (HTTP 401)${says} Name the secret that holds it in the provider's "apiKeySecret".`
            : ` rejected the API key (HTTP 401)${says} Check the key stored as "${context.apiKeySecret ?? '?'}".`,
        );
      case 403:
        return known(`: the API key is not allowed to do this (HTTP 403)${says}`);
      case 404:
        return known(` does not know ${context.model ? `model "${context.model}"` : 'this request'} (HTTP 404)${says}${context.notFoundHint ?? ''}`);
      case 429:
        return known(` is rate-limiting requests (HTTP 429)${says}`);
      default:
        // A refusal of the request's shape speaks of the API's own fields ("messages.1.content.0.text"):
        // said first in words, then quoted as the provider's, not run on as if it were Atrium's sentence.
        return known(status >= 500 ? ` had a server error (HTTP ${status})${says}` : ` refused the conversation as it was sent (HTTP ${status}).${detail ? ` It said: “${detail}”` : ''}`);
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError(providerId, `${who}: ${scrubKey(message, context.key)}`);
}

/** What a reply stream that failed part-way becomes: an LlmError stays as it is. */
export function streamFailure<E extends SdkApiError>(providerId: string, error: unknown, context: ProviderErrorContext<E>): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof context.sdk.APIError) return toLlmError(providerId, error, context);
  // fetch's body reader fails with a bare TypeError ("terminated") when the server drops the connection.
  const message = scrubKey(error instanceof Error ? error.message : String(error), context.key);
  return new LlmError(providerId, `${context.label}: the reply from ${context.baseURL} broke off (${message}).`);
}

/** A reply stream that ended without its final event. */
export function streamCutShort(providerId: string, context: ProviderNaming): LlmError {
  return new LlmError(providerId, `${context.label}: the connection to ${context.baseURL} closed before the reply was complete.`);
}

/** Tool-call arguments as an object; running a tool with arguments the model did not send would show the person a call nobody asked for. */
export function toolArguments(providerId: string, context: ProviderNaming, tool: string, json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed)) {
    throw new LlmError(
      providerId,
      `${context.label}: model "${context.model ?? '?'}" called tool "${tool}" with arguments that are not a JSON object (${truncate(json, 200)}); the call was not made.`,
    );
  }
  return parsed;
}

/** That a provider has no key, and where to give it: said by the source the key was looked for in, when it can. */
export function missingKeyMessage(config: ProviderConfig, secrets?: SecretSource): string {
  if (config.apiKeySecret === undefined) return `no API key for provider ${config.id}: set "apiKeySecret" in its settings to the name of the secret that holds the key.`;
  const where = secrets?.whereToGive?.(config.apiKeySecret);
  return where !== undefined
    ? `no API key for provider ${config.id}: ${where}.`
    : `no API key for provider ${config.id}: set the secret "${config.apiKeySecret}" (for the CLI, the environment variable ${secretVariables(config.apiKeySecret).join(' or ')}).`;
}

/** Any echo of the key becomes ***, and the text is kept short. */
export function scrubKey(text: string, key: string | undefined): string {
  const clean = key && key.length >= 4 ? text.split(key).join('***') : text;
  return truncate(clean.trim(), 300);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
