import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LlmProvider, ModelRequest } from '../../chat/llmTypes.ts';
import { RequestRefusedError } from '../../mcp/connection/connectionServices.ts';
import { InvalidOutcomeError, PendingRequests } from '../pendingRequests.ts';
import type { PendingRecord } from '../pendingRequests.ts';
import type { SamplingBrokerDeps, SamplingPolicy, SamplingRequestPayload, SamplingResultPayload } from './samplingBroker.ts';
import { createSamplingBroker } from './samplingBroker.ts';

function provider(models: string[]): LlmProvider & { seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  return {
    id: 'p',
    kind: 'anthropic',
    defersTools: true,
    seen,
    listModels: async () => models,
    async *stream(request) {
      seen.push(request);
      yield { type: 'text_delta', text: 'sampled reply' };
      yield { type: 'done', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

const params = (extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Summarise this' } }],
  maxTokens: 100,
  systemPrompt: 'be brief',
  ...extra,
});

/** A broker whose pending requests are answered by `answer` (stage by stage), recording what was shown. */
function setup(policy: SamplingPolicy | (() => SamplingPolicy), answer: (record: PendingRecord) => unknown, overrides: Partial<SamplingBrokerDeps> = {}) {
  const shown: PendingRecord[] = [];
  const pending = new PendingRequests({
    opened: (record) => {
      shown.push(record);
      queueMicrotask(() => pending.respond(record.id, answer(record)));
    },
    closed: () => undefined,
  });
  const llm = provider(['claude-haiku-4', 'claude-sonnet-4', 'claude-opus-4']);
  const broker = createSamplingBroker({
    policy: typeof policy === 'function' ? policy : () => policy,
    pending,
    models: async () => ({ provider: llm, defaultModel: 'claude-sonnet-4' }),
    isTrusted: (serverId) => serverId === 'trusted',
    conversationFor: () => 'conv-1',
    context: (_conversation, serverId, scope) => `CONTEXT(${serverId}, ${scope})`,
    ...overrides,
  });
  const ask = (serverId: string, extra: Record<string, unknown> = {}) => broker.createMessage({ serverId, params: params(extra), signal: new AbortController().signal });
  return { ask, shown, llm, pending };
}

const stage = (record: PendingRecord) => (record.payload as { stage: string }).stage;

test('sampling is refused by the deny policy without asking anyone', async () => {
  const { ask, shown } = setup('deny', () => ({ action: 'approve' }));
  await assert.rejects(ask('s'), RequestRefusedError);
  assert.equal(shown.length, 0);
});

test('the policy is read for each request: turning sampling off applies to the next request, without a restart', async () => {
  let policy: SamplingPolicy = 'ask';
  const { ask, shown } = setup(() => policy, (record) => (stage(record) === 'request' ? { action: 'approve' } : { action: 'send' }));
  await ask('s');
  assert.equal(shown.length, 2);
  policy = 'deny';
  await assert.rejects(ask('s'), /declined: sampling is turned off/);
  assert.equal(shown.length, 2, 'the person is not asked once sampling is off');
});

test('the person sees the request with the chosen model, edits and approves it, then reviews and edits the reply', async () => {
  const { ask, shown, llm } = setup('ask', (record) =>
    stage(record) === 'request'
      ? { action: 'approve', systemPrompt: 'be very brief', messages: [{ role: 'user', text: 'Summarise this, kindly' }], maxTokens: 50 }
      : { action: 'send', text: 'edited reply' },
  );
  const result = await ask('untrusted', { modelPreferences: { hints: [{ name: 'haiku' }] } });
  const request = shown[0]?.payload as SamplingRequestPayload;
  assert.equal(shown[0]?.serverId, 'untrusted');
  assert.equal(shown[0]?.conversationId, 'conv-1', 'shown in the conversation whose tool call the server serves');
  assert.deepEqual(request.messages, [{ role: 'user', text: 'Summarise this', attachments: [] }]);
  assert.equal(request.systemPrompt, 'be brief');
  assert.equal(request.model, 'claude-haiku-4');
  assert.match(request.why, /hint "haiku"/);
  assert.equal(llm.seen[0]?.system, 'be very brief', 'the edited system prompt reached the model');
  assert.equal(llm.seen[0]?.maxTokens, 50);
  assert.deepEqual(llm.seen[0]?.messages, [{ role: 'user', content: [{ type: 'text', text: 'Summarise this, kindly' }] }]);
  assert.deepEqual(shown[1]?.payload as SamplingResultPayload, { stage: 'result', provider: 'p', model: 'claude-haiku-4', why: request.why, text: 'sampled reply', stopReason: 'endTurn' });
  assert.deepEqual(result, { role: 'assistant', content: { type: 'text', text: 'edited reply' }, model: 'claude-haiku-4', stopReason: 'endTurn' });
});

test('rejecting the request runs no model; withholding the reply sends nothing back', async () => {
  const rejected = setup('ask', () => ({ action: 'reject' }));
  await assert.rejects(rejected.ask('s'), /rejected by the person/);
  assert.equal(rejected.llm.seen.length, 0);
  const withheld = setup('ask', (record) => (stage(record) === 'request' ? { action: 'approve' } : { action: 'reject' }));
  await assert.rejects(withheld.ask('s'), /withheld by the person/);
  assert.equal(withheld.llm.seen.length, 1);
});

test("the approve policy runs a trusted server's request without asking; any other server is still asked", async () => {
  const { ask, shown } = setup('approve', (record) => (stage(record) === 'request' ? { action: 'approve' } : { action: 'send' }));
  assert.equal((await ask('trusted')).model, 'claude-sonnet-4');
  assert.equal(shown.length, 0);
  await ask('untrusted');
  assert.deepEqual(shown.map(stage), ['request', 'result']);
});

test('includeContext is honoured only when the person explicitly shares it', async () => {
  const withoutConsent = setup('ask', (record) => (stage(record) === 'request' ? { action: 'approve' } : { action: 'send' }));
  await withoutConsent.ask('s', { includeContext: 'thisServer' });
  assert.equal((withoutConsent.shown[0]?.payload as SamplingRequestPayload).includeContext, 'thisServer');
  assert.equal(withoutConsent.llm.seen[0]?.system, 'be brief');
  const withConsent = setup('ask', (record) => (stage(record) === 'request' ? { action: 'approve', shareContext: true } : { action: 'send' }));
  await withConsent.ask('s', { includeContext: 'thisServer' });
  assert.match(withConsent.llm.seen[0]?.system ?? '', /^be brief\n\nContext from the conversation \(shared by the person\):\nCONTEXT\(s, thisServer\)$/);
  const trustedAuto = setup('approve', () => ({ action: 'approve' }));
  await trustedAuto.ask('trusted', { includeContext: 'allServers' });
  assert.equal(trustedAuto.llm.seen[0]?.system, 'be brief', 'auto-approval never shares context');
});

test('a malformed answer is refused and the request stays open for a proper one', async () => {
  let opened: (record: PendingRecord) => void = () => undefined;
  const firstRecord = new Promise<PendingRecord>((resolve) => (opened = resolve));
  const pending = new PendingRequests({ opened: (record) => opened(record), closed: () => undefined });
  const broker = createSamplingBroker({
    policy: () => 'ask',
    pending,
    models: async () => ({ provider: provider([]), defaultModel: 'm' }),
    isTrusted: () => false,
    conversationFor: () => undefined,
    context: () => '',
  });
  const waiting = broker.createMessage({ serverId: 's', params: params(), signal: new AbortController().signal });
  const record = await firstRecord;
  assert.throws(() => pending.respond(record.id, { action: 'approve', maxTokens: 'lots' }), InvalidOutcomeError);
  assert.throws(() => pending.respond(record.id, { action: 'yes' }), InvalidOutcomeError);
  assert.equal(pending.list().length, 1);
  pending.respond(record.id, { action: 'reject' });
  await assert.rejects(waiting, RequestRefusedError);
});

test('a server is rate-limited before the person is asked', async () => {
  const { ask, shown } = setup('ask', (record) => (stage(record) === 'request' ? { action: 'approve' } : { action: 'send' }), { perMinuteLimit: 2 });
  await ask('greedy');
  await ask('greedy');
  await assert.rejects(ask('greedy'), /more than 2 requests in a minute/);
  assert.equal(shown.length, 4);
  await ask('other');
});

test('with no model to use, the request is declined with the reason (not an internal error), and nobody is asked', async () => {
  const { ask, shown } = setup('ask', () => ({ action: 'approve' }), {
    models: async () => {
      throw new Error('no model provider is set up yet: add one in Settings (Model providers)');
    },
  });
  await assert.rejects(ask('s'), (error: unknown) => error instanceof RequestRefusedError && /declined: no model provider is set up yet/.test(error.message));
  assert.equal(shown.length, 0);
});

test('the review and its record say which model answered: the provider, the model and why; a server that answered with another model than asked says so', async () => {
  const answeredAs: LlmProvider = {
    ...provider(['whatever-is-asked']),
    id: 'local',
    async *stream() {
      yield { type: 'text_delta', text: 'from the model it had loaded' };
      yield { type: 'done', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1 }, model: 'llama-3.1-8b-q4' };
    },
  };
  const { ask, shown } = setup('ask', (record) => (stage(record) === 'request' ? { action: 'approve', model: 'claude-opus-4' } : { action: 'send' }), {
    models: async () => ({ provider: answeredAs, defaultModel: 'claude-sonnet-4' }),
  });
  const result = await ask('untrusted');
  const review = shown[1]?.payload as SamplingResultPayload;
  assert.deepEqual([review.provider, review.model, review.why], ['local', 'llama-3.1-8b-q4', 'claude-opus-4 was asked for; local answered with llama-3.1-8b-q4']);
  assert.equal(result.model, 'llama-3.1-8b-q4', 'the server is told the model that answered');
});
