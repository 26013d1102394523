// OpenAI's Responses API behind the provider-neutral LlmProvider: where it matters over Chat Completions
// is images out (the model's image generation tool, offered when the person turns it on) and tool
// results that carry images natively. ChatMessages become input items (tool calls as function_call,
// results as function_call_output), ModelTools become function tools with the MCP schema as it came,
// and one streamed response becomes ModelStreamEvents.

import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
  ResponseStreamEvent,
  Tool,
} from 'openai/resources/responses/responses';
import type { SecretSource } from '../../store/secrets.ts';
import { LlmError } from '../llmTypes.ts';
import type { LlmProvider, ModelRequest, ModelStreamEvent, ModelTool, ProviderConfig } from '../llmTypes.ts';
import { APIError } from 'openai';
import { sendWithDeferralFallback, toolsToSend, withoutDeferral } from './toolDeferral.ts';
import { openAiProviderOver } from './openaiClient.ts';
import { MessageConversions } from './messageConversions.ts';
import type { OpenAiClientOptions, OpenAiClientSource } from './openaiClient.ts';
import { OPENAI_IMAGE_TYPES, toOpenAiTool } from './openaiProvider.ts';
import { streamCutShort, streamFailure, toLlmError, toolArguments } from './providerErrors.ts';
import type { ChatMessage } from '../../../shared/conversation.ts';
import type { StopReason, TokenUsage } from '../../../shared/domain.ts';

export function createOpenAiResponsesProvider(config: ProviderConfig, secrets: SecretSource, options: OpenAiClientOptions = {}): LlmProvider {
  // A server that refused deferred tools once (one that copies the API without tool search) gets none again.
  const deferral = { refused: false };
  const conversions = new MessageConversions<ResponseInputItem[]>();
  return openAiProviderOver(config, secrets, options, (source, request, usage) => streamResponse(config, source, deferral.refused ? withoutDeferral(request) : request, usage, deferral, conversions));
}

async function* streamResponse(
  config: ProviderConfig,
  source: OpenAiClientSource,
  request: ModelRequest,
  usage: TokenUsage,
  deferral: { refused: boolean },
  conversions: MessageConversions<ResponseInputItem[]>,
): AsyncGenerator<ModelStreamEvent> {
  const signal = request.signal;
  const { key, client: openai } = await source.client();
  const errors = source.errors(key, request.model);
  const notices: string[] = [];
  let events: AsyncIterable<ResponseStreamEvent>;
  let searchTool: string | undefined;
  try {
    const { sent, refusal } = await sendWithDeferralFallback(
      request,
      (toSend) => {
        const params = requestParams(config, toSend, notices, conversions);
        searchTool = params.searchTool;
        return openai.responses.create(params.body, signal ? { signal } : {});
      },
      (error) => error instanceof APIError && error.status === 400,
    );
    events = sent;
    if (refusal instanceof APIError) {
      deferral.refused = true;
      notices.push(`${errors.label} does not take deferred tools (${refusal.message}): the tools the model finds are added to the list sent instead`);
    }
  } catch (error) {
    throw toLlmError(config.id, error, errors);
  }
  for (const message of new Set(notices)) yield { type: 'notice', message };

  const calls: { id: string; name: string; args: string }[] = [];
  let stopReason: StopReason | undefined;
  let refused = false;
  let answeredBy: string | undefined;
  try {
    for await (const event of events) {
      switch (event.type) {
        case 'response.output_text.delta':
          yield { type: 'text_delta', text: event.delta };
          break;
        case 'response.refusal.delta':
          refused = true;
          yield { type: 'text_delta', text: event.delta };
          break;
        case 'response.output_item.added':
          if (event.item.type === 'function_call') calls.push({ id: event.item.call_id, name: event.item.name, args: '' });
          break;
        case 'response.function_call_arguments.delta': {
          const call = calls.at(-1);
          if (call) {
            call.args += event.delta;
            yield { type: 'tool_call_delta', id: call.id, name: call.name, partialJson: event.delta };
          }
          break;
        }
        case 'response.output_item.done':
          if (event.item.type === 'function_call') {
            const done = event.item;
            const call = calls.find((c) => c.id === done.call_id);
            // The finished item is authoritative: servers that send arguments whole skip the deltas.
            if (call) call.args = done.arguments;
          } else if (event.item.type === 'tool_search_call' && event.item.execution === 'client' && searchTool !== undefined) {
            // The model searching for tools: Atrium's search answers it, as a call of its search tool.
            calls.push({ id: event.item.call_id ?? event.item.id, name: searchTool, args: JSON.stringify(event.item.arguments ?? {}) });
          } else if (event.item.type === 'image_generation_call' && event.item.result) {
            const format = event.item.output_format ?? 'png';
            yield { type: 'image', mimeType: `image/${format === 'svg' ? 'svg+xml' : format}`, data: event.item.result };
          }
          break;
        case 'response.completed':
        case 'response.incomplete':
          answeredBy = event.response.model;
          usage.inputTokens = event.response.usage?.input_tokens ?? 0;
          usage.outputTokens = event.response.usage?.output_tokens ?? 0;
          stopReason = event.type === 'response.completed' ? (calls.length > 0 ? 'tool_use' : 'end_turn') : incompleteReason(event.response.incomplete_details?.reason);
          break;
        case 'response.failed':
          throw new LlmError(config.id, `${errors.label}: the model failed: ${event.response.error?.message ?? 'no reason given'}`);
        case 'error':
          throw new LlmError(config.id, `${errors.label}: the reply stream failed: ${event.message}`);
        default:
          break;
      }
    }
  } catch (error) {
    if (error instanceof LlmError) throw error;
    throw streamFailure(config.id, error, errors);
  }
  if (stopReason === undefined) throw streamCutShort(config.id, errors);
  for (const call of calls) yield { type: 'tool_call', id: call.id, name: call.name, input: call.args.trim() === '' ? {} : toolArguments(config.id, errors, call.name, call.args) };
  yield { type: 'done', stopReason: refused ? 'refusal' : stopReason, usage: { ...usage }, ...(answeredBy && answeredBy !== request.model ? { model: answeredBy } : {}) };
}

function incompleteReason(reason: string | undefined): StopReason {
  if (reason === 'max_output_tokens') return 'max_tokens';
  if (reason === 'content_filter') return 'refusal';
  return 'other';
}

/**
 * The request as the Responses API takes it. With deferred tools, Atrium's search is the API's client tool
 * search (`tool_search`, executed by the client), each deferred tool goes with `defer_loading`, and a
 * search's result gives the model the definitions it found (`tool_search_output`).
 */
function requestParams(config: ProviderConfig, request: ModelRequest, notices: string[], conversions: MessageConversions<ResponseInputItem[]>): { body: ResponseCreateParamsStreaming; searchTool?: string } {
  const sent = toolsToSend(request);
  const native = sent.some((tool) => tool.deferred);
  const search = native ? sent.find((tool) => tool.searchesTools) : undefined;
  const definitions = new Map(sent.map((tool) => [tool.name, functionTool(tool, notices)]));
  const tools: Tool[] = sent.map((tool): Tool => {
    if (tool === search) return { type: 'tool_search', execution: 'client', parameters: tool.inputSchema, ...(tool.description ? { description: tool.description } : {}) };
    const definition = definitions.get(tool.name) as FunctionTool;
    return tool.deferred ? { ...definition, defer_loading: true } : definition;
  });
  if (config.imageGeneration) tools.push({ type: 'image_generation' });
  const loads = search ? { searchTool: search.name, definitions: new Map(sent.filter((tool) => tool.deferred).map((tool) => [tool.name, definitions.get(tool.name) as FunctionTool])) } : undefined;
  const body: ResponseCreateParamsStreaming = {
    model: request.model,
    input: toResponsesInput(request.messages, notices, loads, conversions),
    stream: true,
    max_output_tokens: request.maxTokens,
    // Atrium keeps the conversation; nothing is left on OpenAI's side to be chained or retained.
    store: false,
    ...(request.system ? { instructions: request.system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
  };
  return { body, ...(search ? { searchTool: search.name } : {}) };
}

function functionTool(tool: ModelTool, notices: string[]): FunctionTool {
  const { function: fn } = toOpenAiTool(tool, 'openai', notices);
  // Never strict mode: it rejects keywords MCP schemas use ($ref siblings, unevaluatedProperties, …).
  return { type: 'function', name: fn.name, parameters: fn.parameters ?? {}, strict: false, ...(fn.description ? { description: fn.description } : {}) };
}

// ---- ChatMessage → Responses input items ----

/** With `search`: calls of Atrium's tool search are the API's client tool search, and their results load what they found. */
interface SearchLoads {
  searchTool: string;
  /** The deferred tools' definitions, by name. */
  definitions: ReadonlyMap<string, FunctionTool>;
}

/** `conversions`: what earlier requests made of the same messages, so only new ones are converted. */
export function toResponsesInput(messages: readonly ChatMessage[], notices: string[], search?: SearchLoads, conversions = new MessageConversions<ResponseInputItem[]>()): ResponseInputItem[] {
  // The calls of the tool search, whose results load what they found rather than answer a function.
  const searchCalls = new Set<string>();
  if (search) for (const message of messages) for (const c of message.content) if (c.type === 'tool_use' && c.name === search.searchTool) searchCalls.add(c.id);
  const items: ResponseInputItem[] = [];
  const convert = (message: ChatMessage, said: string[]) => messageItems(message, said, search, searchCalls);
  // With a tool search, a call's and a result's items read which tool searches and what each found loads.
  const context = search ? JSON.stringify([search.searchTool, ...search.definitions]) : '';
  for (const converted of conversions.of(messages, notices, convert, context)) items.push(...converted);
  return items;
}

function messageItems(message: ChatMessage, notices: string[], search: SearchLoads | undefined, searchCalls: ReadonlySet<string>): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  const own: ResponseInputMessageContentList = [];
  let assistantText: string[] = [];
  // In order: an assistant's words before its tool calls stay before them.
  const flushAssistantText = () => {
    if (assistantText.length > 0) items.push({ role: 'assistant', content: assistantText.join('\n') });
    assistantText = [];
  };
  for (const content of message.content) {
    switch (content.type) {
      case 'text':
        if (content.text === '') break;
        if (message.role === 'assistant') assistantText.push(content.text);
        else own.push({ type: 'input_text', text: content.text });
        break;
      case 'image':
        // An image the model generated earlier: the model is told it made one, not shown it again.
        if (message.role === 'assistant') assistantText.push(`[An image (${content.mimeType}) generated earlier in this conversation.]`);
        else own.push(imageInput(content, notices));
        break;
      case 'tool_use':
        flushAssistantText();
        if (search && content.name === search.searchTool) {
          items.push({ type: 'tool_search_call', call_id: content.id, arguments: content.input, execution: 'client', status: 'completed' });
        } else {
          items.push({ type: 'function_call', call_id: content.id, name: content.name, arguments: JSON.stringify(content.input) });
        }
        break;
      case 'tool_result':
        if (search && searchCalls.has(content.toolUseId)) {
          const tools = (content.loadsTools ?? []).flatMap((name) => search.definitions.get(name) ?? []);
          items.push({ type: 'tool_search_output', call_id: content.toolUseId, execution: 'client', status: 'completed', tools });
          // What it found besides tools (servers' skills) has no place in the search's output: said after it.
          if (content.alsoFound !== undefined) items.push({ role: 'user', content: [{ type: 'input_text', text: content.alsoFound }] });
        } else {
          items.push({ type: 'function_call_output', call_id: content.toolUseId, output: toolOutput(content, notices) });
        }
        break;
    }
  }
  flushAssistantText();
  if (own.length > 0) items.push({ role: 'user', content: own });
  return items;
}

function toolOutput(result: Extract<ChatMessage['content'][number], { type: 'tool_result' }>, notices: string[]): ResponseFunctionCallOutputItemList {
  const output: ResponseFunctionCallOutputItemList = result.content.map((part) =>
    part.type === 'text' ? { type: 'input_text', text: part.text } : imageInput(part, notices),
  );
  if (result.isError) output.unshift({ type: 'input_text', text: '[The tool reported an error]' });
  return output;
}

function imageInput(image: { mimeType: string; data: string }, notices: string[]): { type: 'input_image'; detail: 'auto'; image_url: string } | { type: 'input_text'; text: string } {
  if (!OPENAI_IMAGE_TYPES.has(image.mimeType)) {
    notices.push(`OpenAI accepts only JPEG, PNG, GIF and WebP images; an ${image.mimeType} image was replaced by a note saying so.`);
    return { type: 'input_text', text: `[An image of type ${image.mimeType} was left out: this model accepts only JPEG, PNG, GIF and WebP.]` };
  }
  return { type: 'input_image', detail: 'auto', image_url: `data:${image.mimeType};base64,${image.data}` };
}
