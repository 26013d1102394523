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
import type { LlmProvider, ModelRequest, ModelStreamEvent, ProviderConfig } from '../llmTypes.ts';
import { openAiProviderOver } from './openaiClient.ts';
import type { OpenAiClientOptions, OpenAiClientSource } from './openaiClient.ts';
import { OPENAI_IMAGE_TYPES, toOpenAiTool } from './openaiProvider.ts';
import { streamCutShort, streamFailure, toLlmError, toolArguments } from './providerErrors.ts';
import type { ChatMessage } from '../../../shared/conversation.ts';
import type { StopReason, TokenUsage } from '../../../shared/domain.ts';

export function createOpenAiResponsesProvider(config: ProviderConfig, secrets: SecretSource, options: OpenAiClientOptions = {}): LlmProvider {
  return openAiProviderOver(config, secrets, options, (source, request, usage) => streamResponse(config, source, request, usage));
}

async function* streamResponse(config: ProviderConfig, source: OpenAiClientSource, request: ModelRequest, usage: TokenUsage): AsyncGenerator<ModelStreamEvent> {
  const signal = request.signal;
  const { key, client: openai } = await source.client();
  const errors = source.errors(key, request.model);
  const notices: string[] = [];
  const tools: Tool[] = request.tools.map((tool): FunctionTool => {
    const { function: fn } = toOpenAiTool(tool, 'openai', notices);
    // Never strict mode: it rejects keywords MCP schemas use ($ref siblings, unevaluatedProperties, …).
    return { type: 'function', name: fn.name, parameters: fn.parameters ?? {}, strict: false, ...(fn.description ? { description: fn.description } : {}) };
  });
  if (config.imageGeneration) tools.push({ type: 'image_generation' });
  const params: ResponseCreateParamsStreaming = {
    model: request.model,
    input: toResponsesInput(request.messages, notices),
    stream: true,
    max_output_tokens: request.maxTokens,
    // Atrium keeps the conversation; nothing is left on OpenAI's side to be chained or retained.
    store: false,
    ...(request.system ? { instructions: request.system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
  };
  for (const message of notices) yield { type: 'notice', message };

  let events: AsyncIterable<ResponseStreamEvent>;
  try {
    events = await openai.responses.create(params, signal ? { signal } : {});
  } catch (error) {
    throw toLlmError(config.id, error, errors);
  }

  const calls: { id: string; name: string; args: string }[] = [];
  let stopReason: StopReason | undefined;
  let refused = false;
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
          } else if (event.item.type === 'image_generation_call' && event.item.result) {
            const format = event.item.output_format ?? 'png';
            yield { type: 'image', mimeType: `image/${format === 'svg' ? 'svg+xml' : format}`, data: event.item.result };
          }
          break;
        case 'response.completed':
        case 'response.incomplete':
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
  yield { type: 'done', stopReason: refused ? 'refusal' : stopReason, usage: { ...usage } };
}

function incompleteReason(reason: string | undefined): StopReason {
  if (reason === 'max_output_tokens') return 'max_tokens';
  if (reason === 'content_filter') return 'refusal';
  return 'other';
}

// ---- ChatMessage → Responses input items ----

export function toResponsesInput(messages: readonly ChatMessage[], notices: string[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
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
          items.push({ type: 'function_call', call_id: content.id, name: content.name, arguments: JSON.stringify(content.input) });
          break;
        case 'tool_result':
          items.push({ type: 'function_call_output', call_id: content.toolUseId, output: toolOutput(content, notices) });
          break;
      }
    }
    flushAssistantText();
    if (own.length > 0) items.push({ role: 'user', content: own });
  }
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
