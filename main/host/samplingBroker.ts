// A server's sampling request (sampling/createMessage, or a 2026-07-28 input_required sampling request)
// answered with one of the person's models. Never approved by default: the CLI's `--sampling approve`
// (or, later, the person in the sampling dialog) says yes. The model is chosen from the server's
// modelPreferences: hints as substrings, in order, over the provider's models; else the default model.

import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { ChatContent, ChatMessage, LlmProvider } from '../chat/llmTypes.ts';
import type { SamplingBroker, SamplingParams } from './brokers.ts';
import { RequestRefusedError } from './brokers.ts';

export type SamplingPolicy = 'deny' | 'approve';

export interface SamplingBrokerOptions {
  policy: SamplingPolicy;
  provider: LlmProvider;
  defaultModel: string;
  /** Told which model was chosen and why, for the log. */
  onChoice?(serverId: string, model: string, why: string): void;
  /** Requests per server per minute; past it the server is refused (a server must not run up the bill). */
  perMinuteLimit?: number;
}

export function createSamplingBroker(options: SamplingBrokerOptions): SamplingBroker {
  const recent = new Map<string, number[]>();
  const limit = options.perMinuteLimit ?? 10;
  return {
    createMessage: async ({ serverId, params, signal }) => {
      if (options.policy !== 'approve') throw new RequestRefusedError(`Sampling request from "${serverId}" was declined`);
      const now = Date.now();
      const times = (recent.get(serverId) ?? []).filter((t) => now - t < 60_000);
      if (times.length >= limit) throw new RequestRefusedError(`Sampling request from "${serverId}" was declined: more than ${limit} requests in a minute`);
      recent.set(serverId, [...times, now]);
      // includeContext is not honoured: context from conversations or other servers is shared only with
      // the person's explicit consent, which this broker cannot ask for, so the request goes on without it.
      const { model, why } = await chooseModel(options, params);
      options.onChoice?.(serverId, model, why);
      let text = '';
      let stopReason: string = 'endTurn';
      for await (const event of options.provider.stream({
        model,
        messages: params.messages.map(toChatMessage),
        tools: [],
        maxTokens: params.maxTokens,
        signal,
        ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
      })) {
        if (event.type === 'text_delta') text += event.text;
        if (event.type === 'done') stopReason = event.stopReason === 'max_tokens' ? 'maxTokens' : event.stopReason === 'end_turn' ? 'endTurn' : event.stopReason;
      }
      return { role: 'assistant', content: { type: 'text', text }, model, stopReason } as CreateMessageResult;
    },
  };
}

export async function chooseModel(options: Pick<SamplingBrokerOptions, 'provider' | 'defaultModel'>, params: SamplingParams): Promise<{ model: string; why: string }> {
  const hints = (params.modelPreferences?.hints ?? []).map((h) => h.name).filter((name): name is string => typeof name === 'string' && name.length > 0);
  if (hints.length > 0) {
    const models = await options.provider.listModels().catch(() => [] as string[]);
    for (const hint of hints) {
      const match = models.find((m) => m.toLowerCase().includes(hint.toLowerCase()));
      if (match) return { model: match, why: `matches the server's hint "${hint}"` };
    }
    return { model: options.defaultModel, why: `no model matches the server's hints (${hints.join(', ')}); using the default` };
  }
  return { model: options.defaultModel, why: 'the server gave no model hints; using the default' };
}

function toChatMessage(message: SamplingParams['messages'][number]): ChatMessage {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const content: ChatContent[] = blocks.map((block): ChatContent => {
    const b = block as { type: string; text?: string; data?: string; mimeType?: string };
    if (b.type === 'text') return { type: 'text', text: b.text ?? '' };
    if (b.type === 'image' && b.data && b.mimeType) return { type: 'image', mimeType: b.mimeType, data: b.data };
    return { type: 'text', text: `[${b.type} content]` };
  });
  return { role: message.role, content };
}
