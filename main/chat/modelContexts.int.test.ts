// How much context a model on an OpenAI-compatible server has, asked over real HTTP of servers on
// 127.0.0.1 that answer as Ollama, LM Studio, llama.cpp and vLLM do (their documented answers, trimmed).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import type { ProviderConfig } from './llmTypes.ts';
import { ModelContexts, askCompatibleServer } from './modelContexts.ts';

type Routes = Record<string, unknown>;

describe('asking a local model server how much context a model has', () => {
  const servers: { close(): void }[] = [];
  after(() => servers.forEach((server) => server.close()));

  /** A server answering "METHOD /path" routes with JSON, and 404 to anything else; returns its /v1 base URL and what it was asked. */
  async function localServer(routes: Routes): Promise<{ baseUrl: string; asked: string[] }> {
    const asked: string[] = [];
    const server = createServer((request, response) => {
      const route = `${request.method} ${request.url}`;
      asked.push(route);
      const known = Object.hasOwn(routes, route);
      response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(known ? routes[route] : { error: 'not found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, asked };
  }

  const ask = (baseUrl: string, model: string) => askCompatibleServer(baseUrl, model, AbortSignal.timeout(5_000));

  test('Ollama: the context of the model as loaded, else the num_ctx its parameters set', async () => {
    const loaded = await localServer({ 'GET /api/ps': { models: [{ name: 'qwen2.5:7b', model: 'qwen2.5:7b', context_length: 16384 }] } });
    assert.equal(await ask(loaded.baseUrl, 'qwen2.5:7b'), 16384);
    const configured = await localServer({ 'GET /api/ps': { models: [] }, 'POST /api/show': { parameters: 'stop "<|im_end|>"\nnum_ctx 8192\ntemperature 0.7', model_info: { 'qwen2.context_length': 32768 } } });
    assert.equal(await ask(configured.baseUrl, 'qwen2.5:7b'), 8192);
    const silent = await localServer({ 'GET /api/ps': { models: [] }, 'POST /api/show': { parameters: 'temperature 0.7', model_info: { 'qwen2.context_length': 32768 } } });
    assert.equal(await ask(silent.baseUrl, 'qwen2.5:7b'), undefined, 'what the model was trained for is not what it runs with');
  });

  test('LM Studio: the context the model is loaded with', async () => {
    const lmStudio = await localServer({ 'GET /api/v0/models': { data: [{ id: 'other', loaded_context_length: 2048 }, { id: 'qwen2.5-7b-instruct', state: 'loaded', max_context_length: 32768, loaded_context_length: 4096 }] } });
    assert.equal(await ask(lmStudio.baseUrl, 'qwen2.5-7b-instruct'), 4096);
  });

  test('llama.cpp: the context it was started with; vLLM: max_model_len in its model list', async () => {
    const llamaCpp = await localServer({ 'GET /props': { default_generation_settings: { n_ctx: 12288 } } });
    assert.equal(await ask(llamaCpp.baseUrl, 'whatever'), 12288);
    const vllm = await localServer({ 'GET /v1/models': { data: [{ id: 'meta-llama/Llama-3.1-8B-Instruct', max_model_len: 65536 }] } });
    assert.equal(await ask(vllm.baseUrl, 'meta-llama/Llama-3.1-8B-Instruct'), 65536);
  });

  test('what a server says is kept a while; one that says nothing leaves the usual figure for the kind, said as such', async () => {
    const ollama = await localServer({ 'GET /api/ps': { models: [{ name: 'm', context_length: 8192 }] } });
    const contexts = new ModelContexts();
    const config: ProviderConfig = { id: 'local', kind: 'openai-compatible', baseUrl: ollama.baseUrl };
    assert.deepEqual(await contexts.contextOf(config, 'm'), { tokens: 8192, reported: true });
    const askedBefore = ollama.asked.length;
    assert.deepEqual(await contexts.contextOf(config, 'm'), { tokens: 8192, reported: true });
    assert.equal(ollama.asked.length, askedBefore, 'not asked again at once');
    assert.deepEqual(contexts.known(config, 'm'), { tokens: 8192, reported: true });
    const silent = await localServer({});
    assert.deepEqual(await contexts.contextOf({ id: 'other', kind: 'openai-compatible', baseUrl: silent.baseUrl }, 'm'), { tokens: 32_000, reported: false });
    assert.deepEqual(await contexts.contextOf({ id: 'claude', kind: 'anthropic' }, 'claude-x'), { tokens: 200_000, reported: false });
  });

  test('a server that never answers costs a turn at most a moment', async () => {
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => (hanging.closeAllConnections(), hanging.close()) });
    const started = Date.now();
    const context = await new ModelContexts().contextOf({ id: 'slow', kind: 'openai-compatible', baseUrl: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1` }, 'm');
    assert.deepEqual(context, { tokens: 32_000, reported: false });
    assert.ok(Date.now() - started < 5_000, `asked for ${Date.now() - started} ms`);
  });
});
