// A server's sampling request (sampling/createMessage, or a 2026-07-28 input_required sampling request)
// answered with one of the person's models, under the person's control:
//   1. the request becomes a pending record showing the server, its messages, system prompt, model
//      preferences and the model Atrium chose; the person approves (editing any of it) or rejects;
//   2. the model runs;
//   3. the reply becomes a second pending record; the person sends it (edited or not) or withholds it.
// Policy 'deny' refuses everything (the default), read per request so a change in Settings applies at once. Policy 'approve' skips both questions, but only for
// servers the person marked trusted; any other server is still asked. includeContext is honoured only
// when the person explicitly agrees in step 1, never under the auto-approve policy.

import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { SamplingRequestAnswer, SamplingRequestPayload, SamplingResultAnswer, SamplingResultPayload } from '../../../shared/pendingPayloads.ts';
import type { LlmProvider } from '../../chat/llmTypes.ts';
import type { SamplingBroker, SamplingParams } from '../../mcp/connection/connectionServices.ts';
import { RequestRefusedError } from '../../mcp/connection/connectionServices.ts';
import { samplingRequestOutcomeSchema, samplingResultOutcomeSchema } from '../../../shared/pendingPayloads.ts';
import { outcomeChecker } from '../pendingOutcomes.ts';
import type { PendingRequests } from '../pendingRequests.ts';
import { RateLimiter } from '../rateLimiter.ts';
import type { ModelTraits } from './modelChoice.ts';
import { chooseModel } from './modelChoice.ts';
import type { ContextScope } from './samplingContext.ts';
import type { ChatContent, ChatMessage } from '../../../shared/conversation.ts';
import { questionTask } from '../../mcp/extensions/tasks/host/taskQuestions.ts';
import type { TaskOfQuestion } from '../../mcp/extensions/tasks/host/taskQuestions.ts';

export type SamplingPolicy = 'deny' | 'ask' | 'approve';

/** The model sampling uses, chosen at each request so a host without providers still starts. */
export interface SamplingModels {
  provider: LlmProvider;
  defaultModel: string;
  traits?: Readonly<Record<string, Partial<ModelTraits>>>;
}

export type { SamplingRequestAnswer, SamplingRequestPayload, SamplingResultAnswer, SamplingResultPayload };

export interface SamplingBrokerDeps extends TaskOfQuestion {
  /** Read at every request: a policy chosen in Settings applies to the next request. */
  policy(): SamplingPolicy;
  pending: PendingRequests;
  /** The model for a request: the one of the conversation the server is serving, else the default; read per request. */
  models(conversationId: string | undefined): Promise<SamplingModels>;
  isTrusted(serverId: string): boolean;
  conversationFor(serverId: string): string | undefined;
  /** The conversation's context in the scope the server asked for. */
  context(conversationId: string, serverId: string, scope: ContextScope): string;
  /** Requests per server per minute; past it the server is refused (a server must not run up the bill). */
  perMinuteLimit?: number;
}

const checkRequestAnswer = outcomeChecker(samplingRequestOutcomeSchema, 'sampling approval');
const checkResultAnswer = outcomeChecker(samplingResultOutcomeSchema, 'sampling review');

export function createSamplingBroker(deps: SamplingBrokerDeps): SamplingBroker {
  const limiter = new RateLimiter(deps.perMinuteLimit ?? 10, 60_000);
  return {
    createMessage: async ({ serverId, params, signal, note }) => {
      const policy = deps.policy();
      if (policy === 'deny') throw new RequestRefusedError(`Sampling request from "${serverId}" was declined: sampling is turned off`);
      if (!limiter.take(serverId)) throw new RequestRefusedError(`Sampling request from "${serverId}" was declined: more than ${limiter.limit} requests in a minute`);
      // A task's request is made in the task's conversation, however long after its turn, and names it.
      const { task, conversationId = deps.conversationFor(serverId) } = questionTask(deps, serverId, params);
      // No model at all is a refusal the server can report, not an internal error: nobody can be asked to run one.
      const { provider, defaultModel, traits } = await deps.models(conversationId).catch((error: unknown) => {
        throw new RequestRefusedError(`Sampling request from "${serverId}" was declined: ${(error as Error).message}`);
      });
      const models = await provider.listModels().catch(() => [] as string[]);
      const choice = chooseModel(params.modelPreferences, models, defaultModel, traits);
      const includeContext = params.includeContext ?? 'none';
      const asked = !(policy === 'approve' && deps.isTrusted(serverId));
      const options = { signal, ...(conversationId ? { conversationId } : {}), ...(task ? { task } : {}) };

      let messages = params.messages.map(toChatMessage);
      let system = params.systemPrompt;
      let maxTokens = params.maxTokens;
      let model = choice.model;
      let why = choice.why;
      if (asked) {
        const payload: SamplingRequestPayload = {
          stage: 'request',
          messages: params.messages.map(shownMessage),
          ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
          maxTokens: params.maxTokens,
          ...(params.modelPreferences ? { modelPreferences: params.modelPreferences } : {}),
          includeContext,
          contextAvailable: conversationId !== undefined,
          provider: provider.id,
          model,
          why,
          models,
        };
        const answer = await deps.pending.request<'sampling', SamplingRequestAnswer>('sampling', serverId, payload, { ...options, check: checkRequestAnswer });
        if (answer.action === 'reject') throw new RequestRefusedError(`Sampling request from "${serverId}" was rejected by the person`);
        if (answer.messages) messages = answer.messages.map((m) => ({ role: m.role, content: [{ type: 'text', text: m.text }] }));
        if (answer.systemPrompt !== undefined) system = answer.systemPrompt;
        if (answer.maxTokens !== undefined) maxTokens = answer.maxTokens;
        if (answer.model !== undefined && answer.model !== model) {
          model = answer.model;
          why = 'chosen by the person';
        }
        if (answer.shareContext === true && includeContext !== 'none' && conversationId !== undefined) {
          const context = deps.context(conversationId, serverId, includeContext);
          if (context) system = [system, `Context from the conversation (shared by the person):\n${context}`].filter(Boolean).join('\n\n');
        }
      }
      note?.(`sampling with ${model}: ${why}`);

      let text = '';
      let stopReason = 'endTurn';
      for await (const event of provider.stream({ model, messages, tools: [], maxTokens, signal, ...(system ? { system } : {}) })) {
        if (event.type === 'text_delta') text += event.text;
        if (event.type === 'done') {
          stopReason = event.stopReason === 'max_tokens' ? 'maxTokens' : event.stopReason === 'end_turn' ? 'endTurn' : event.stopReason;
          // A server that serves whatever it has loaded answers with another model than the one asked for: that one is said.
          if (event.model !== undefined && event.model !== model) {
            why = `${model} was asked for; ${provider.id} answered with ${event.model}`;
            model = event.model;
            note?.(`sampling: ${why}`);
          }
        }
      }

      if (asked) {
        const reply: SamplingResultPayload = { stage: 'result', provider: provider.id, model, why, text, stopReason };
        const review = await deps.pending.request<'sampling', SamplingResultAnswer>('sampling', serverId, reply, { ...options, check: checkResultAnswer });
        if (review.action === 'reject') throw new RequestRefusedError(`The sampled reply for "${serverId}" was withheld by the person`);
        if (review.text !== undefined) text = review.text;
      }
      return { role: 'assistant', content: { type: 'text', text }, model, stopReason } as CreateMessageResult;
    },
  };
}

function blocksOf(message: SamplingParams['messages'][number]): { type: string; text?: string; data?: string; mimeType?: string }[] {
  return (Array.isArray(message.content) ? message.content : [message.content]) as { type: string; text?: string; data?: string; mimeType?: string }[];
}

function toChatMessage(message: SamplingParams['messages'][number]): ChatMessage {
  const content: ChatContent[] = blocksOf(message).map((b): ChatContent => {
    if (b.type === 'text') return { type: 'text', text: b.text ?? '' };
    if (b.type === 'image' && b.data && b.mimeType) return { type: 'image', mimeType: b.mimeType, data: b.data };
    return { type: 'text', text: `[${b.type} content]` };
  });
  return { role: message.role, content };
}

function shownMessage(message: SamplingParams['messages'][number]): SamplingRequestPayload['messages'][number] {
  const blocks = blocksOf(message);
  return {
    role: message.role,
    text: blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n'),
    attachments: blocks.filter((b) => b.type !== 'text').map((b) => (b.mimeType ? `${b.type} ${b.mimeType}` : b.type)),
  };
}
