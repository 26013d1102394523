// The Anthropic Messages API behind the provider-neutral LlmProvider: ChatMessages become Anthropic
// content blocks, ModelTools become tools whose input_schema is the MCP schema as it came, and one
// streamed turn becomes text_delta / tool_call_delta / tool_call / done events.

import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  StopReason as AnthropicStopReason,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { SecretSource } from '../../store/secrets.ts';
import { LlmError } from '../llmTypes.ts';
import type { ChatContent, ChatMessage, LlmProvider, ModelRequest, ModelStreamEvent, ModelTool, ProviderConfig, StopReason, TokenUsage } from '../llmTypes.ts';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** The only image types the Messages API accepts; anything else is refused with a 400. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export interface AnthropicProviderOptions {
  /** Retries of a request that failed before any output (429, 5xx, 529 overloaded, network); the SDK's default is 2. */
  maxRetries?: number;
}

export function createAnthropicProvider(config: ProviderConfig, secrets: SecretSource, options: AnthropicProviderOptions = {}): LlmProvider {
  // An explicit default, so that ANTHROPIC_BASE_URL in the environment cannot send the key elsewhere.
  const baseURL = config.baseUrl ?? DEFAULT_BASE_URL;
  let cached: { key: string; client: Anthropic } | undefined;

  /** Reads the key on every turn, so a key the person changes applies without a restart. */
  async function client(): Promise<{ key: string; client: Anthropic }> {
    const key = config.apiKeySecret === undefined ? undefined : await secrets.get(config.apiKeySecret);
    if (key === undefined) throw new LlmError(config.id, missingKeyMessage(config));
    if (cached?.key !== key) {
      cached = {
        key,
        client: new Anthropic({
          apiKey: key,
          baseURL,
          // The SDK retries only before any output arrives and honours retry-after; aborting stops it.
          maxRetries: options.maxRetries ?? 2,
          // Failures come back as LlmError values; the SDK's own console lines would reach no log a person reads.
          logLevel: 'off',
          openTelemetry: false,
        }),
      };
    }
    return cached;
  }

  return {
    id: config.id,
    kind: 'anthropic',

    async listModels() {
      try {
        const { client: anthropic } = await client();
        const ids: string[] = [];
        for await (const model of anthropic.models.list({ limit: 100 })) ids.push(model.id);
        if (ids.length > 0) return ids;
      } catch (error) {
        if (!config.models?.length) throw error instanceof LlmError ? error : toLlmError(config, baseURL, error, cached?.key);
      }
      return config.models ?? [];
    },

    stream(request) {
      return streamTurn(config, baseURL, client, request);
    },
  };
}

async function* streamTurn(
  config: ProviderConfig,
  baseURL: string,
  client: () => Promise<{ key: string; client: Anthropic }>,
  request: ModelRequest,
): AsyncGenerator<ModelStreamEvent> {
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  const cancelled = (): ModelStreamEvent => ({ type: 'done', stopReason: 'cancelled', usage: { ...usage } });
  const signal = request.signal;
  // A turn cancelled before it starts ends as cancelled, even without a key.
  if (signal?.aborted) {
    yield cancelled();
    return;
  }
  const { key, client: anthropic } = await client();
  const notices: string[] = [];
  const params: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: request.messages.map((message) => toAnthropicMessage(message, notices)),
    stream: true,
    ...(request.system ? { system: request.system } : {}),
    ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => toAnthropicTool(tool, notices)) } : {}),
  };
  for (const message of notices) yield { type: 'notice', message };


  let events: AsyncIterable<RawMessageStreamEvent>;
  try {
    events = await anthropic.messages.create(params, signal ? { signal } : {});
  } catch (error) {
    if (signal?.aborted) {
      yield cancelled();
      return;
    }
    throw toLlmError(config, baseURL, error, key, request.model);
  }

  const toolBlocks = new Map<number, { id: string; name: string; json: string; startInput: unknown }>();
  let stopReason: StopReason = 'other';
  let finished = false;
  try {
    for await (const event of events) {
      switch (event.type) {
        case 'message_start': {
          const u = event.message.usage;
          usage.inputTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
          usage.outputTokens = u.output_tokens;
          break;
        }
        case 'content_block_start': {
          const block = event.content_block;
          if (block.type === 'tool_use') toolBlocks.set(event.index, { id: block.id, name: block.name, json: '', startInput: block.input });
          else if (block.type === 'text' && block.text) yield { type: 'text_delta', text: block.text };
          break;
        }
        case 'content_block_delta': {
          const delta = event.delta;
          if (delta.type === 'text_delta') {
            yield { type: 'text_delta', text: delta.text };
          } else if (delta.type === 'input_json_delta') {
            const block = toolBlocks.get(event.index);
            if (block && delta.partial_json) {
              block.json += delta.partial_json;
              yield { type: 'tool_call_delta', id: block.id, name: block.name, partialJson: delta.partial_json };
            }
          }
          // Thinking, signature and citation deltas have no place in the neutral conversation yet.
          break;
        }
        case 'content_block_stop': {
          const block = toolBlocks.get(event.index);
          if (block) {
            toolBlocks.delete(event.index);
            yield { type: 'tool_call', id: block.id, name: block.name, input: toolInput(config, request.model, block) };
          }
          break;
        }
        case 'message_delta': {
          if (event.delta.stop_reason) stopReason = mapStopReason(event.delta.stop_reason);
          // message_delta carries cumulative counts.
          usage.outputTokens = event.usage.output_tokens;
          if (event.usage.input_tokens != null) {
            usage.inputTokens = event.usage.input_tokens + (event.usage.cache_creation_input_tokens ?? 0) + (event.usage.cache_read_input_tokens ?? 0);
          }
          break;
        }
        case 'message_stop':
          finished = true;
          break;
      }
    }
  } catch (error) {
    if (signal?.aborted) {
      yield cancelled();
      return;
    }
    if (error instanceof LlmError) throw error;
    if (error instanceof APIError) throw toLlmError(config, baseURL, error, key, request.model);
    // fetch's body reader fails with a bare TypeError ("terminated") when the server drops the connection.
    throw new LlmError(config.id, `${label(config)}: the reply from ${baseURL} broke off (${scrub(error instanceof Error ? error.message : String(error), key)}).`);
  }
  // The SDK ends the iteration quietly when the request is aborted.
  if (signal?.aborted) {
    yield cancelled();
    return;
  }
  if (!finished) throw new LlmError(config.id, `${label(config)}: the connection to ${baseURL} closed before the reply was complete.`);
  yield { type: 'done', stopReason, usage: { ...usage } };
}

function toolInput(config: ProviderConfig, model: string, block: { name: string; json: string; startInput: unknown }): Record<string, unknown> {
  if (block.json === '') return isRecord(block.startInput) ? block.startInput : {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.json);
  } catch {
    parsed = undefined;
  }
  // Running a tool with arguments the model did not send would show the person a call nobody asked for.
  if (!isRecord(parsed)) {
    throw new LlmError(config.id, `${label(config)}: model "${model}" called tool "${block.name}" with arguments that are not a JSON object (${truncate(block.json, 200)}); the call was not made.`);
  }
  return parsed;
}

function mapStopReason(reason: AnthropicStopReason): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
      return reason;
    // The context window filled up mid-reply: for the loop, a reply cut short by a limit.
    case 'model_context_window_exceeded':
      return 'max_tokens';
    default:
      return 'other';
  }
}

// ---- ChatMessage → Anthropic ----

export function toAnthropicMessage(message: ChatMessage, notices: string[]): MessageParam {
  const blocks = message.content.flatMap((content) => toAnthropicBlocks(content, notices));
  // The API wants a user turn's tool_result blocks before anything else in it.
  const results = blocks.filter((block) => block.type === 'tool_result');
  const rest = blocks.filter((block) => block.type !== 'tool_result');
  return { role: message.role, content: [...results, ...rest] };
}

function toAnthropicBlocks(content: ChatContent, notices: string[]): ContentBlockParam[] {
  switch (content.type) {
    case 'text':
      // The API refuses empty text blocks.
      return content.text === '' ? [] : [{ type: 'text', text: content.text }];
    case 'image':
      return [toImageBlock(content, notices)];
    case 'tool_use':
      return [{ type: 'tool_use', id: content.id, name: content.name, input: content.input }];
    case 'tool_result': {
      const parts = content.content.flatMap((part): (TextBlockParam | ImageBlockParam)[] =>
        part.type === 'text' ? (part.text === '' ? [] : [{ type: 'text', text: part.text }]) : [toImageBlock(part, notices)],
      );
      return [{ type: 'tool_result', tool_use_id: content.toolUseId, ...(parts.length > 0 ? { content: parts } : {}), ...(content.isError ? { is_error: true } : {}) }];
    }
  }
}

function toImageBlock(image: { mimeType: string; data: string }, notices: string[]): ImageBlockParam | TextBlockParam {
  if (IMAGE_TYPES.has(image.mimeType)) {
    return { type: 'image', source: { type: 'base64', media_type: image.mimeType as 'image/png', data: image.data } };
  }
  notices.push(`Anthropic accepts only JPEG, PNG, GIF and WebP images; an ${image.mimeType} image was replaced by a note saying so.`);
  return { type: 'text', text: `[An image of type ${image.mimeType} was left out: this model accepts only JPEG, PNG, GIF and WebP.]` };
}

/** The schema goes as it came ($ref, $defs, 2020-12 keywords); only a missing top-level `type: "object"`, which the API requires, is added. */
export function toAnthropicTool(tool: ModelTool, notices: string[]): Tool {
  let schema = tool.inputSchema;
  if (schema.type === undefined) {
    schema = { type: 'object', ...schema };
    notices.push(`Tool "${tool.name}": its input schema has no top-level "type"; added "type": "object", which Anthropic requires.`);
  } else if (schema.type !== 'object') {
    notices.push(`Tool "${tool.name}": its input schema's top-level type is ${JSON.stringify(schema.type)}, not "object"; Anthropic will likely refuse it. Sent unchanged.`);
  }
  return { name: tool.name, ...(tool.description ? { description: tool.description } : {}), input_schema: schema as Tool.InputSchema };
}

// ---- errors a person can act on ----

function label(config: ProviderConfig): string {
  return `Anthropic provider "${config.id}"`;
}

function missingKeyMessage(config: ProviderConfig): string {
  return config.apiKeySecret === undefined
    ? `no API key for provider ${config.id}: set "apiKeySecret" in its settings to the name of the secret that holds the key.`
    : `no API key for provider ${config.id}: set the secret "${config.apiKeySecret}" (for the CLI, the environment variable ATRIUM_SECRET_${config.apiKeySecret.toUpperCase().replace(/[^A-Z0-9]/g, '_')}).`;
}

/** A sentence a person understands; the key is scrubbed from anything the server echoed, and no SDK error (which may quote it) is kept as the cause. */
export function toLlmError(config: ProviderConfig, baseURL: string, error: unknown, key: string | undefined, model?: string): LlmError {
  const who = label(config);
  if (error instanceof APIConnectionTimeoutError) {
    return new LlmError(config.id, `${who}: timed out waiting for ${baseURL}.`);
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause : undefined;
    const code = networkCode(cause);
    return new LlmError(config.id, `${who}: cannot reach ${baseURL}${code ? ` (${code})` : ''}. Check the address and your network.`, cause ? { cause } : undefined);
  }
  if (error instanceof APIError) {
    const detail = scrub(error.apiMessage ?? error.message, key);
    const status = error.status as number | undefined;
    const says = detail ? `: ${detail}${/[.!?]$/.test(detail) ? '' : '.'}` : '.';
    const known = (message: string) => new LlmError(config.id, `${who}${message}`, status === undefined ? undefined : { status });
    switch (status) {
      case undefined:
        return known(`: the reply stream failed${says}`);
      case 401:
        return known(` rejected the API key (HTTP 401)${says} Check the key stored as "${config.apiKeySecret ?? '?'}".`);
      case 403:
        return known(`: the API key is not allowed to do this (HTTP 403)${says}`);
      case 404:
        return known(` does not know ${model ? `model "${model}"` : 'this request'} (HTTP 404)${says}`);
      case 429:
        return known(` is rate-limiting requests (HTTP 429)${says}`);
      case 529:
        return known(` is overloaded (HTTP 529)${says} Try again shortly.`);
      default:
        return known(status >= 500 ? ` had a server error (HTTP ${status})${says}` : ` refused the request (HTTP ${status})${says}`);
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError(config.id, `${who}: ${scrub(message, key)}`);
}

/** The innermost reason fetch gives (its outer error only says "fetch failed"). */
function networkCode(cause: Error | undefined): string | undefined {
  let innermost: Error | undefined;
  for (let e: unknown = cause; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return 'connection refused';
    if (code === 'ENOTFOUND') return 'host not found';
    if (typeof code === 'string') return code;
    innermost = e;
  }
  return innermost && innermost !== cause ? innermost.message : undefined;
}

function scrub(text: string, key: string | undefined): string {
  const clean = key && key.length >= 4 ? text.split(key).join('***') : text;
  return truncate(clean.trim(), 300);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
