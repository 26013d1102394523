// OpenAI Chat Completions behind the provider-neutral LlmProvider, for OpenAI itself and for any server
// that speaks the same wire format by base URL (Ollama, llama.cpp, LM Studio, vLLM). ChatMessages become
// chat messages (tool results as `role: "tool"` messages), ModelTools become function tools whose
// parameters are the MCP schema as it came, and one streamed turn becomes ModelStreamEvents.

import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import type { SecretSource } from '../../store/secrets.ts';
import type { LlmProvider, ModelRequest, ModelStreamEvent, ModelTool, ProviderConfig } from '../llmTypes.ts';
import { openAiProviderOver } from './openaiClient.ts';
import type { OpenAiClientOptions, OpenAiClientSource, OpenAiKind } from './openaiClient.ts';
import { streamCutShort, streamFailure, toLlmError, toolArguments } from './providerErrors.ts';
import type { ProviderNaming } from './providerErrors.ts';
import type { ChatMessage } from '../../../shared/conversation.ts';
import type { StopReason, TokenUsage } from '../../../shared/domain.ts';

export { NO_KEY_PLACEHOLDER } from './openaiClient.ts';
/** The image types OpenAI documents for vision input; other servers get whatever they are given. */
export const OPENAI_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export type OpenAiProviderOptions = OpenAiClientOptions;

export function createOpenAiProvider(config: ProviderConfig, secrets: SecretSource, options: OpenAiProviderOptions = {}): LlmProvider {
  return openAiProviderOver(config, secrets, options, (source, request, usage) => streamTurn(config, source, request, usage));
}

async function* streamTurn(config: ProviderConfig, source: OpenAiClientSource, request: ModelRequest, usage: TokenUsage): AsyncGenerator<ModelStreamEvent> {
  const kind = source.kind;
  const signal = request.signal;
  const { key, client: openai } = await source.client();
  const errors = source.errors(key, request.model);
  const notices: string[] = [];
  const params: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toOpenAiMessages(request, kind, notices),
    stream: true,
    stream_options: { include_usage: true },
    // OpenAI's newer models refuse `max_tokens`; many compatible servers know only `max_tokens`.
    ...(kind === 'openai' ? { max_completion_tokens: request.maxTokens } : { max_tokens: request.maxTokens }),
    // Never strict mode: it rejects keywords MCP schemas use ($ref siblings, unevaluatedProperties, …).
    ...(request.tools.length > 0 ? { tools: request.tools.map((tool) => toOpenAiTool(tool, kind, notices)) } : {}),
  };
  for (const message of notices) yield { type: 'notice', message };


  let chunks: AsyncIterable<ChatCompletionChunk>;
  try {
    chunks = await openai.chat.completions.create(params, signal ? { signal } : {});
  } catch (error) {
    throw toLlmError(config.id, error, errors);
  }

  const calls = new Map<number, { id: string; name: string; args: string }>();
  let finishReason: ChatCompletionChunk.Choice['finish_reason'] | undefined;
  let refused = false;
  let answeredBy: string | undefined;
  try {
    for await (const chunk of chunks) {
      if (chunk.model) answeredBy = chunk.model;
      if (chunk.usage) {
        usage.inputTokens = chunk.usage.prompt_tokens;
        usage.outputTokens = chunk.usage.completion_tokens;
      }
      const choice = chunk.choices[0];
      if (!choice) continue;
      const delta = choice.delta;
      if (delta.content) yield { type: 'text_delta', text: delta.content };
      if (delta.refusal) {
        refused = true;
        yield { type: 'text_delta', text: delta.refusal };
      }
      for (const [position, part] of (delta.tool_calls ?? []).entries()) {
        // Some compatible servers leave out `index` when each call arrives whole.
        const index = typeof part.index === 'number' ? part.index : position;
        let call = calls.get(index);
        if (!call) {
          // Some compatible servers leave out ids; the agent loop needs one to pair the result.
          call = { id: part.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`, name: '', args: '' };
          calls.set(index, call);
        }
        // The name comes once; servers that repeat it in every piece must not have it doubled.
        if (part.function?.name && call.name === '') call.name = part.function.name;
        const piece = part.function?.arguments;
        if (piece) {
          call.args += piece;
          yield { type: 'tool_call_delta', id: call.id, name: call.name, partialJson: piece };
        }
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    throw streamFailure(config.id, error, errors);
  }
  if (finishReason === undefined) throw streamCutShort(config.id, errors);

  for (const index of [...calls.keys()].sort((a, b) => a - b)) {
    const call = calls.get(index);
    if (call) yield { type: 'tool_call', id: call.id, name: call.name, input: toolInput(config.id, errors, call) };
  }
  let stopReason = mapFinishReason(finishReason);
  // Some compatible servers say "stop" after tool calls; the loop must still run the tools.
  if (calls.size > 0 && stopReason === 'end_turn') stopReason = 'tool_use';
  if (refused) stopReason = 'refusal';
  yield { type: 'done', stopReason, usage: { ...usage }, ...(answeredBy && answeredBy !== request.model ? { model: answeredBy } : {}) };
}

/** Empty arguments mean a call without arguments; anything else must parse to an object. */
function toolInput(providerId: string, errors: ProviderNaming, call: { name: string; args: string }): Record<string, unknown> {
  if (call.args.trim() === '') return {};
  return toolArguments(providerId, errors, call.name, call.args);
}

function mapFinishReason(reason: ChatCompletionChunk.Choice['finish_reason']): StopReason {
  switch (reason) {
    case 'stop':
      return 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

// ---- ChatMessage → Chat Completions ----

export function toOpenAiMessages(request: Pick<ModelRequest, 'system' | 'messages'>, kind: OpenAiKind, notices: string[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (request.system) out.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.role === 'assistant') out.push(toAssistantMessage(message, notices));
    else out.push(...toUserMessages(message, kind, notices));
  }
  return out;
}

function toAssistantMessage(message: ChatMessage, notices: string[]): ChatCompletionAssistantMessageParam {
  const text = message.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('');
  const toolCalls = message.content.flatMap((c) =>
    c.type === 'tool_use' ? [{ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.input) } }] : [],
  );
  if (message.content.some((c) => c.type === 'image')) notices.push('Chat Completions takes no images in assistant messages; an assistant image was left out.');
  return { role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
}

/**
 * A user turn becomes its tool results first (each a `role: "tool"` message, which must follow the
 * assistant's tool calls directly), then one user message with the rest. Tool messages carry only text,
 * so images a tool returned travel in that user message, each introduced by the call it came from.
 */
function toUserMessages(message: ChatMessage, kind: OpenAiKind, notices: string[]): ChatCompletionMessageParam[] {
  const toolMessages: ChatCompletionToolMessageParam[] = [];
  const resultImages: ChatCompletionContentPart[] = [];
  const own: ChatCompletionContentPart[] = [];
  for (const content of message.content) {
    switch (content.type) {
      case 'text':
        if (content.text !== '') own.push({ type: 'text', text: content.text });
        break;
      case 'image':
        own.push(toImagePart(content, kind, notices));
        break;
      case 'tool_result': {
        const texts = content.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
        const images = content.content.flatMap((part) => (part.type === 'image' ? [part] : []));
        if (images.length > 0) {
          texts.push(`[${images.length === 1 ? 'The image this tool returned follows' : `The ${images.length} images this tool returned follow`} in the next user message.]`);
          resultImages.push({ type: 'text', text: `Image${images.length === 1 ? '' : 's'} returned by tool call ${content.toolUseId}:` });
          resultImages.push(...images.map((image) => toImagePart(image, kind, notices)));
          notices.push(`Tool call ${content.toolUseId} returned ${images.length} image(s); Chat Completions tool messages take only text, so they were sent in a user message after the tool results.`);
        }
        // Chat Completions has no error flag on tool messages; the model learns it from the text.
        const body = texts.join('\n');
        toolMessages.push({ role: 'tool', tool_call_id: content.toolUseId, content: content.isError ? `[The tool reported an error]\n${body}` : body });
        break;
      }
      case 'tool_use':
        notices.push(`A user message held a tool call (${content.name}); Chat Completions has no place for it, so it was left out.`);
        break;
    }
  }
  const parts = [...resultImages, ...own];
  if (parts.length === 0) return toolMessages;
  // A lone text goes as a plain string, which every compatible server understands.
  const only = parts.length === 1 ? parts[0] : undefined;
  return [...toolMessages, { role: 'user', content: only?.type === 'text' ? only.text : parts }];
}

function toImagePart(image: { mimeType: string; data: string }, kind: OpenAiKind, notices: string[]): ChatCompletionContentPart {
  if (kind === 'openai' && !OPENAI_IMAGE_TYPES.has(image.mimeType)) {
    notices.push(`OpenAI accepts only JPEG, PNG, GIF and WebP images; an ${image.mimeType} image was replaced by a note saying so.`);
    return { type: 'text', text: `[An image of type ${image.mimeType} was left out: this model accepts only JPEG, PNG, GIF and WebP.]` };
  }
  return { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

/**
 * The schema goes as it came ($ref, $defs, 2020-12 keywords), never in strict mode. Function parameters
 * must be an object schema: a missing top-level `type` becomes "object", and for OpenAI itself, which
 * refuses an object schema without `properties`, an empty `properties` is added. Each change is a notice.
 */
export function toOpenAiTool(tool: ModelTool, kind: OpenAiKind, notices: string[]): ChatCompletionFunctionTool {
  let schema = tool.inputSchema;
  if (schema.type === undefined) {
    schema = { type: 'object', ...schema };
    notices.push(`Tool "${tool.name}": its input schema has no top-level "type"; added "type": "object", which function parameters require.`);
  } else if (schema.type !== 'object') {
    notices.push(`Tool "${tool.name}": its input schema's top-level type is ${JSON.stringify(schema.type)}, not "object"; the server will likely refuse it. Sent unchanged.`);
  }
  if (kind === 'openai' && schema.type === 'object' && schema.properties === undefined) {
    schema = { ...schema, properties: {} };
    notices.push(`Tool "${tool.name}": its input schema has no "properties"; added an empty one, which OpenAI requires of an object schema.`);
  }
  return { type: 'function', function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: schema } };
}
