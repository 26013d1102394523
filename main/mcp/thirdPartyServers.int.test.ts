// The connection layer against real third-party servers: @modelcontextprotocol/server-everything over
// stdio and Streamable HTTP, and @modelcontextprotocol/server-filesystem driven by Atrium's roots.

import assert from 'node:assert/strict';
import { mkdir, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { ElicitationFormPayload } from '../host/elicitation/personElicitation.ts';
import type { RunningServer, TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { everythingServerPath, filesystemServerPath, makeTempDir, nextEvent, startEverythingHttp, startTestHost } from '../../e2e/fixtures/hostHarness.ts';

const textOf = (result: Record<string, unknown>) => ((result.content as { type: string; text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe('server-everything over stdio', () => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] } });
    await host.core.hub.whenSettled();
  });
  after(() => host.close());

  test('MCP 2024-11-05 Lifecycle (initialize): becomes ready over the 2025-era initialize handshake and lists every primitive', async () => {
    const [server] = await host.core.api.listServers({});
    assert.equal(server?.status.kind, 'ready');
    assert.equal(server?.era, 'legacy');
    assert.match(server?.protocolVersion ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.ok((server?.counts.tools ?? 0) >= 10, 'tools listed');
    assert.ok((server?.counts.resources ?? 0) >= 1, 'resources listed');
    assert.ok((server?.counts.resourceTemplates ?? 0) >= 1, 'templates listed');
    assert.ok((server?.counts.prompts ?? 0) >= 1, 'prompts listed');
  });

  test('calls a tool and returns structured content', async () => {
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'everything', tool: 'echo', arguments: { message: 'hi there' } })), 'Echo: hi there');
    const sum = await host.core.api.callTool({ serverId: 'everything', tool: 'get-sum', arguments: { a: 2, b: 40 } });
    assert.match(textOf(sum), /42/);
  });

  test('MCP 2024-11-05 Resources, Prompts and Completion: reads a resource, gets a prompt with arguments and completes an argument', async () => {
    const [resource] = await host.core.api.listResources({ serverId: 'everything' });
    assert.ok(resource);
    const read = await host.core.api.readResource({ serverId: 'everything', uri: resource.uri });
    assert.ok(Array.isArray(read.contents) && read.contents.length > 0);
    const prompt = await host.core.api.getPrompt({ serverId: 'everything', name: 'args-prompt', arguments: { city: 'Lisbon' } });
    assert.match(JSON.stringify(prompt.messages), /Lisbon/);
    const completion = await host.core.api.complete({ serverId: 'everything', ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } });
    assert.ok(completion.values.length > 0 && completion.values.every((v) => v.startsWith('E')), JSON.stringify(completion));
  });

  test('MCP 2024-11-05 Progress: progress notifications of a long call reach the caller as progress events', async () => {
    const seen: number[] = [];
    const off = host.core.events.on('progress', (p) => p.callId === 'long-1' && seen.push(p.progress));
    await host.core.api.callTool({ serverId: 'everything', tool: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 }, callId: 'long-1' });
    off();
    assert.ok(seen.length >= 2, `progress seen: ${JSON.stringify(seen)}`);
    assert.ok(seen.every((value, i) => value <= 3 && (i === 0 || value > (seen[i - 1] ?? 0))), JSON.stringify(seen));
  });

  test("its elicitation form (every field kind the specification allows) is shown to the person, and their answer reaches it", async () => {
    const asked = nextEvent(host.core, 'pendingOpened');
    const call = host.core.api.callTool({ serverId: 'everything', tool: 'trigger-elicitation-request', arguments: {} });
    const record = await asked;
    const { fields } = record.payload as ElicitationFormPayload;
    assert.deepEqual(new Set(fields.map((f) => f.kind)), new Set(['text', 'boolean', 'integer', 'number', 'choice', 'choices']));
    await assert.rejects(host.core.api.respondPending({ id: record.id, outcome: { action: 'accept', content: { name: 'Ada', email: 'not an email' } } }), /must be an email address, like ada@example.com/);
    await host.core.api.respondPending({ id: record.id, outcome: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', integer: 7, untitledMultipleSelectEnum: ['Piano'] } } });
    const text = textOf(await call);
    assert.match(text, /accept/i);
    assert.match(text, /Ada/);
    assert.match(text, /ada@example\.com/);
  });

  test('MCP 2024-11-05 Sampling (a human may deny it): a sampling request is refused by default, and the server is told so', async () => {
    const result = await host.core.api.callTool({ serverId: 'everything', tool: 'trigger-sampling-request', arguments: { prompt: 'hello' } }).catch((e: Error) => ({ error: e.message }));
    assert.match(JSON.stringify(result), /declined/i);
  });

  test('MCP 2024-11-05 Resources (subscriptions): resources/subscribe (2025 era) delivers notifications/resources/updated for the subscribed URI', async () => {
    const [resource] = await host.core.api.listResources({ serverId: 'everything' });
    assert.ok(resource);
    await host.core.api.subscribeResource({ serverId: 'everything', uri: resource.uri });
    const updated = nextEvent(host.core, 'resourceUpdated', (e) => e.serverId === 'everything' && e.uri === resource.uri);
    // The server sends one update at once for every subscription when its simulated updates start.
    await host.core.api.callTool({ serverId: 'everything', tool: 'toggle-subscriber-updates', arguments: {} });
    await updated;
    await host.core.api.callTool({ serverId: 'everything', tool: 'toggle-subscriber-updates', arguments: {} });
    await host.core.api.unsubscribeResource({ serverId: 'everything', uri: resource.uri });
  });

  test('MCP 2024-11-05 Roots (roots/list): roots come from the host roots store', async () => {
    const dir = await makeTempDir();
    try {
      const asked = nextEvent(host.core, 'log', (line) => /asked for roots; sent 1/.test(line.text));
      await host.core.api.setRoots({ roots: [{ uri: dir, name: 'work' }] });
      await asked;
      const result = await host.core.api.callTool({ serverId: 'everything', tool: 'get-roots-list', arguments: {} });
      assert.ok(textOf(result).includes(pathToFileURL(await realpath(dir)).href), textOf(result));
    } finally {
      await host.core.api.setRoots({ roots: [] });
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('server-everything over Streamable HTTP', () => {
  let server: RunningServer;
  let host: TestHost;
  before(async () => {
    server = await startEverythingHttp();
    host = await startTestHost({ remote: { type: 'http', url: server.url } });
    await host.core.hub.whenSettled();
  });
  after(async () => {
    await host.close();
    await server.stop();
  });

  test('connects, lists and calls over HTTP', async () => {
    const [snapshot] = await host.core.api.listServers({});
    assert.equal(snapshot?.status.kind, 'ready', JSON.stringify(snapshot?.status));
    assert.equal(snapshot?.transport, 'http');
    assert.ok((snapshot?.counts.tools ?? 0) >= 10);
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'remote', tool: 'echo', arguments: { message: 'over http' } })), 'Echo: over http');
  });
});

describe('server-filesystem with roots', () => {
  let host: TestHost;
  let first: string;
  let second: string;
  before(async () => {
    first = await realpath(await makeTempDir('atrium-root-a-'));
    second = await realpath(await makeTempDir('atrium-root-b-'));
    await mkdir(join(first, 'inside-a'));
    host = await startTestHost({ fs: { command: process.execPath, args: [filesystemServerPath()] } });
    await host.core.hub.whenSettled();
    const updated = nextEvent(host.core, 'log', (line) => line.serverId === 'fs' && /Updated allowed directories/i.test(line.text));
    await host.core.api.setRoots({ roots: [{ uri: first }] });
    await updated;
  });
  after(async () => {
    await host.close();
    await rm(first, { recursive: true, force: true });
    await rm(second, { recursive: true, force: true });
  });

  test('the server works inside the roots Atrium gave it', async () => {
    const allowed = textOf(await host.core.api.callTool({ serverId: 'fs', tool: 'list_allowed_directories', arguments: {} }));
    assert.ok(allowed.includes(first), allowed);
    const listing = textOf(await host.core.api.callTool({ serverId: 'fs', tool: 'list_directory', arguments: { path: first } }));
    assert.match(listing, /inside-a/);
  });

  test('MCP 2024-11-05 Roots: changing the roots reaches the server at once (roots/list_changed)', async () => {
    const updated = nextEvent(host.core, 'log', (line) => line.serverId === 'fs' && /Updated allowed directories/i.test(line.text));
    await host.core.api.setRoots({ roots: [{ uri: second }] });
    await updated;
    const allowed = textOf(await host.core.api.callTool({ serverId: 'fs', tool: 'list_allowed_directories', arguments: {} }));
    assert.ok(allowed.includes(second) && !allowed.includes(first), allowed);
  });
});
