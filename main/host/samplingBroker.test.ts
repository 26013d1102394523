import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LlmProvider, ModelRequest } from '../chat/llmTypes.ts';
import { RequestRefusedError } from './brokers.ts';
import { createSamplingBroker } from './samplingBroker.ts';

function provider(models: string[]): LlmProvider & { seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  return {
    id: 'p',
    kind: 'anthropic',
    seen,
    listModels: async () => models,
    async *stream(request) {
      seen.push(request);
      yield { type: 'text_delta', text: 'sampled reply' };
      yield { type: 'done', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

const params = (hints: string[] = []) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarise this' } }],
  maxTokens: 100,
  systemPrompt: 'be brief',
  ...(hints.length ? { modelPreferences: { hints: hints.map((name) => ({ name })) } } : {}),
});

test('sampling is refused unless approved', async () => {
  const broker = createSamplingBroker({ policy: 'deny', provider: provider([]), defaultModel: 'd' });
  await assert.rejects(broker.createMessage({ serverId: 's', params: params(), signal: new AbortController().signal }), RequestRefusedError);
});

test('the model comes from the hints, in order, as substrings; the reply goes back as the assistant message', async () => {
  const p = provider(['claude-haiku-4', 'claude-sonnet-4']);
  const choices: string[] = [];
  const broker = createSamplingBroker({ policy: 'approve', provider: p, defaultModel: 'default-model', onChoice: (_s, model, why) => choices.push(`${model}: ${why}`) });
  const result = await broker.createMessage({ serverId: 's', params: params(['opus', 'sonnet']), signal: new AbortController().signal });
  assert.deepEqual(result, { role: 'assistant', content: { type: 'text', text: 'sampled reply' }, model: 'claude-sonnet-4', stopReason: 'endTurn' });
  assert.deepEqual(choices, ['claude-sonnet-4: matches the server\'s hint "sonnet"']);
  assert.equal(p.seen[0]?.system, 'be brief');
  const fallback = await broker.createMessage({ serverId: 's', params: params(['gpt']), signal: new AbortController().signal });
  assert.equal(fallback.model, 'default-model');
});

test('a server is rate-limited', async () => {
  const broker = createSamplingBroker({ policy: 'approve', provider: provider([]), defaultModel: 'd', perMinuteLimit: 2 });
  const ask = () => broker.createMessage({ serverId: 'greedy', params: params(), signal: new AbortController().signal });
  await ask();
  await ask();
  await assert.rejects(ask(), /more than 2 requests in a minute/);
});
