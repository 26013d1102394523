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
import type { LlmProvider, ModelRequest, ModelStreamEvent, ModelTool, ProviderConfig } from '../llmTypes.ts';
import { cancellableTurn } from './cancellableTurn.ts';
import { MessageConversions } from './messageConversions.ts';
import { DEFERS_TOOLS, NO_KEY_PLACEHOLDER, needsKey } from './providerKinds.ts';
import { sendWithDeferralFallback, toolsToSend, withoutDeferral } from './toolDeferral.ts';
import { missingKeyMessage, streamCutShort, streamFailure, toLlmError, toolArguments } from './providerErrors.ts';
import { isRecord } from '../../../shared/isRecord.ts';
import type { ProviderErrorContext, ProviderNaming } from './providerErrors.ts';
import type { ChatContent, ChatMessage } from '../../../shared/conversation.ts';
import type { StopReason, TokenUsage } from '../../../shared/domain.ts';
import { ANTHROPIC_API_ADDRESS } from '../../../shared/providerAddress.ts';

/** The only image types the Messages API accepts; anything else is refused with a 400. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export interface AnthropicProviderOptions {
  /** Retries of a request that failed before any output (429, 5xx, 529 overloaded, network); the SDK's default is 2. */
  maxRetries?: number;
  /** How long a request may take before it fails as timed out; the SDK's default is 10 minutes. */
  timeoutMs?: number;
}

export function createAnthropicProvider(config: ProviderConfig, secrets: SecretSource, options: AnthropicProviderOptions = {}): LlmProvider {
  // An explicit default, so that ANTHROPIC_BASE_URL in the environment cannot send the key elsewhere.
  const baseURL = config.baseUrl ?? ANTHROPIC_API_ADDRESS;
  let cached: { key: string; client: Anthropic } | undefined;
  // A server that refused deferred tools once (a compatible server, an older API) gets none again.
  const deferral = { refused: false };
  const conversions = new MessageConversions<MessageParam>();

  /** Reads the key on every turn, so a key the person changes applies without a restart. */
  async function client(): Promise<{ key: string; client: Anthropic }> {
    const stored = config.apiKeySecret === undefined ? undefined : await secrets.get(config.apiKeySecret);
    // Anthropic's own API needs a key; a proxy at another address may add its own, and is asked without one.
    if (stored === undefined && needsKey(config.kind, config.baseUrl)) throw new LlmError(config.id, missingKeyMessage(config, secrets));
    const key = stored ?? NO_KEY_PLACEHOLDER;
    if (cached?.key !== key) {
      cached = {
        key,
        client: new Anthropic({
          apiKey: key,
          baseURL,
          // The SDK retries only before any output arrives and honours retry-after; aborting stops it.
          maxRetries: options.maxRetries ?? 2,
          ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
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
    defersTools: DEFERS_TOOLS.anthropic,

    async listModels() {
      try {
        const { client: anthropic } = await client();
        const ids: string[] = [];
        for await (const model of anthropic.models.list({ limit: 100 })) ids.push(model.id);
        if (ids.length > 0) return ids;
      } catch (error) {
        if (!config.models?.length) throw error instanceof LlmError ? error : toLlmError(config.id, error, errorContext(config, baseURL, cached?.key));
      }
      return config.models ?? [];
    },

    stream(request) {
      const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
      return cancellableTurn(request.signal, usage, () => streamTurn(config, baseURL, client, deferral.refused ? withoutDeferral(request) : request, usage, deferral, conversions));
    },
  };
}

async function* streamTurn(
  config: ProviderConfig,
  baseURL: string,
  client: () => Promise<{ key: string; client: Anthropic }>,
  request: ModelRequest,
  usage: TokenUsage,
  deferral: { refused: boolean },
  conversions: MessageConversions<MessageParam>,
): AsyncGenerator<ModelStreamEvent> {
  const signal = request.signal;
  const { key, client: anthropic } = await client();
  const errors = errorContext(config, baseURL, key, request.model);
  const notices: string[] = [];
  let events: AsyncIterable<RawMessageStreamEvent>;
  try {
    // Deferred tools refused (a server that copies the API without them): the same turn once more with
    // the tools the conversation loaded, and no deferral from then on.
    const { sent, refusal } = await sendWithDeferralFallback(
      request,
      (toSend) => anthropic.messages.create(requestParams(toSend, notices, conversions), signal ? { signal } : {}),
      (error) => error instanceof APIError && error.status === 400,
    );
    events = sent;
    if (refusal instanceof APIError) {
      deferral.refused = true;
      notices.push(`${errors.label} does not take deferred tools (${refusal.apiMessage ?? 'HTTP 400'}): the tools the model finds are added to the list sent instead`);
    }
  } catch (error) {
    throw toLlmError(config.id, error, errors);
  }
  for (const message of new Set(notices)) yield { type: 'notice', message };

  const toolBlocks = new Map<number, { id: string; name: string; json: string; startInput: unknown }>();
  let stopReason: StopReason = 'other';
  let finished = false;
  let answeredBy: string | undefined;
  try {
    for await (const event of events) {
      switch (event.type) {
        case 'message_start': {
          answeredBy = event.message.model;
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
            yield { type: 'tool_call', id: block.id, name: block.name, input: toolInput(config.id, errors, block) };
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
    throw streamFailure(config.id, error, errors);
  }
  if (!finished) throw streamCutShort(config.id, errors);
  yield { type: 'done', stopReason, usage: { ...usage }, ...(answeredBy && answeredBy !== request.model ? { model: answeredBy } : {}) };
}

/**
 * The request as the Messages API takes it. Deferred tools go with `defer_loading`, and a tool search's
 * result names them as tool references, which load them. The request asks for prompt caching (the API
 * marks its last block), which pays because the tools and earlier messages stay the same turn after turn.
 */
function requestParams(request: ModelRequest, notices: string[], conversions: MessageConversions<MessageParam>): MessageCreateParamsStreaming {
  const tools = toolsToSend(request);
  const deferred = new Set(tools.filter((tool) => tool.deferred).map((tool) => tool.name));
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    // A search result's conversion reads which tools are deferred.
    messages: conversions.of(request.messages, notices, (message, said) => toAnthropicMessage(message, said, deferred), [...deferred].join('\n')),
    stream: true,
    cache_control: { type: 'ephemeral' },
    ...(request.system ? { system: request.system } : {}),
    ...(tools.length > 0 ? { tools: tools.map((tool) => toAnthropicTool(tool, notices)) } : {}),
  };
}

function toolInput(providerId: string, errors: ProviderNaming, block: { name: string; json: string; startInput: unknown }): Record<string, unknown> {
  if (block.json === '') return isRecord(block.startInput) ? block.startInput : {};
  return toolArguments(providerId, errors, block.name, block.json);
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

/** `deferred`: the tools sent deferred, which a tool search's result loads by reference. */
export function toAnthropicMessage(message: ChatMessage, notices: string[], deferred: ReadonlySet<string> = new Set()): MessageParam {
  const blocks = message.content.flatMap((content) =>
    // The Messages API takes no images from the assistant; one generated by another provider is described instead.
    message.role === 'assistant' && content.type === 'image'
      ? [{ type: 'text' as const, text: `[An image (${content.mimeType}) generated earlier in this conversation.]` }]
      : toAnthropicBlocks(content, notices, deferred),
  );
  // The API wants a user turn's tool_result blocks before anything else in it.
  const results = blocks.filter((block) => block.type === 'tool_result');
  const rest = blocks.filter((block) => block.type !== 'tool_result');
  return { role: message.role, content: [...results, ...rest] };
}

function toAnthropicBlocks(content: ChatContent, notices: string[], deferred: ReadonlySet<string>): ContentBlockParam[] {
  switch (content.type) {
    case 'text':
      // The API refuses empty text blocks.
      return content.text === '' ? [] : [{ type: 'text', text: content.text }];
    case 'image':
      return [toImageBlock(content, notices)];
    case 'tool_use':
      return [{ type: 'tool_use', id: content.id, name: content.name, input: content.input }];
    case 'tool_result': {
      // A tool search's result loads what it found by reference (only tools sent deferred; a reference to
      // any other would be refused), in place of the words that list them for a model without deferral.
      const references = (content.loadsTools ?? []).filter((name) => deferred.has(name));
      // What it found besides tools (servers' skills) is said in words after the references.
      const alsoFound = content.alsoFound === undefined ? [] : [{ type: 'text' as const, text: content.alsoFound }];
      if (references.length > 0) return [{ type: 'tool_result', tool_use_id: content.toolUseId, content: [...references.map((name) => ({ type: 'tool_reference' as const, tool_name: name })), ...alsoFound] }];
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
  return { name: tool.name, ...(tool.description ? { description: tool.description } : {}), input_schema: schema as Tool.InputSchema, ...(tool.deferred ? { defer_loading: true } : {}) };
}

// ---- errors a person can act on ----

function errorContext(config: ProviderConfig, baseURL: string, key: string | undefined, model?: string): ProviderErrorContext<APIError> {
  return {
    label: `Anthropic provider "${config.id}"`,
    baseURL,
    key,
    apiKeySecret: config.apiKeySecret,
    model,
    sdk: { APIError, APIConnectionError, APIConnectionTimeoutError },
    serverMessage: (error) => error.apiMessage,
    unreachableHint: 'Check the address and your network.',
    // 529 is Anthropic's own status for an API too busy to answer.
    statusWording: { 529: (says) => ` is overloaded (HTTP 529)${says} Try again shortly.` },
  };
}
