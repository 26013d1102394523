// "Test connection" through each provider's real SDK client against local servers: the sentence for a
// server that lists many models, none, or never answers (within the time the check allows).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { startFakeOpenAi } from '../../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { startFakeOpenAiResponses } from '../../../e2e/fixtures/llm/fakeOpenAiResponsesServer.ts';
import { fakeStarter, secrets } from '../../../e2e/fixtures/llm/providerTestKit.ts';
import { checkConnection } from './connectionCheck.ts';
import { createProvider } from './createProvider.ts';
import type { ProviderConfig } from '../llmTypes.ts';

const openAi = fakeStarter(startFakeOpenAi);
const responses = fakeStarter(startFakeOpenAiResponses);
const make = (config: ProviderConfig, options: Parameters<typeof createProvider>[2]) => createProvider(config, secrets({ key: 'sk-test' }), options);

test('many models: the first are named and the rest counted', async () => {
  const models = Array.from({ length: 11 }, (_, i) => `model-${i + 1}`);
  const server = await openAi([], { models });
  const check = await checkConnection({ id: 'big', kind: 'openai-compatible', baseUrl: server.url, apiKeySecret: 'key' }, make, { address: server.url, keySent: true });
  assert.equal(check.ok, true);
  assert.match(check.message, /It offers 11 models: model-1, model-2, model-3, model-4, model-5, model-6, model-7, model-8 and 3 more\.$/);
  assert.equal(check.models?.length, 11);
});

test('no models listed: reached, and what to do about it; the configured ones are not passed off as listed', async () => {
  const server = await responses([], { models: [] });
  const check = await checkConnection({ id: 'empty', kind: 'openai-responses', baseUrl: server.url, models: ['configured'] }, make, { address: server.url, keySent: false });
  assert.deepEqual(check.models, []);
  assert.match(check.message, /^Reached 127\.0\.0\.1:\d+ in \d+ ms, without a key, but it lists no models: name the models it offers when you edit it\.$/);
});

test('an address that takes the connection and never answers: timed out, said, within the time allowed', async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  after(() => {
    silent.closeAllConnections();
    silent.close();
  });
  const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
  const started = performance.now();
  const check = await checkConnection({ id: 'silent', kind: 'openai-compatible', baseUrl: url }, make, { address: url, keySent: false, timeoutMs: 300 });
  assert.deepEqual(check, { ok: false, message: `OpenAI-compatible provider "silent": timed out waiting for ${url}.` });
  assert.ok(performance.now() - started < 5_000, 'one attempt, not the SDK retries');
});

test('a port fetch never connects to (kept for another service): said as such, not as a server that is down', async () => {
  const url = 'http://127.0.0.1:6000/v1';
  const check = await checkConnection({ id: 'x11', kind: 'openai-compatible', baseUrl: url }, make, { address: url, keySent: false });
  assert.deepEqual(check, {
    ok: false,
    message: `OpenAI-compatible provider "x11": cannot reach ${url}: no web client connects to that port, which belongs to another service. Use the port the server answers at.`,
  });
});
