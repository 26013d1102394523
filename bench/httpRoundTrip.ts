// Per-call latency of `tools/call echo` over Streamable HTTP: (a) Atrium's McpConnection with an
// `{transport: 'http'}` definition, (b) a plain `fetch` client posting the same JSON-RPC request with the
// same headers, (c) the bare SDK Client with its StreamableHTTPClientTransport, for reference. All three
// talk to one server process, in alternating rounds; against two servers in turn: the SDK's McpServer
// (the realistic case, 2026-07-28 era, no sessions) and a minimal hand-written JSON-RPC server (2025 era),
// where the server costs so little that the client's own cost shows in full.
// Target: (a) p50 ≤ 1.5× (b) (SDK v1: 3.1×).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startBenchConnection } from './benchConnection.ts';
import { showSpread } from './spread.ts';

const CALLS = 1_000;
const ROUNDS = 20;
const WARMUP_CALLS = 300;
const TARGET = 1.5;

const serverPath = fileURLToPath(new URL('./servers/trivialHttpServer.ts', import.meta.url));
const clientInfo = { name: 'atrium-bench', version: '0.0.0' };

type ServerKind = 'sdk' | 'minimal';
type ClientName = 'atrium' | 'fetch' | 'sdkClient';
type HttpClient = { call(text: string): Promise<string>; close(): Promise<void> };

async function startServer(kind: ServerKind): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [serverPath, ...(kind === 'minimal' ? ['--minimal'] : []), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const url = /^listening (\S+)/.exec(line)?.[1];
    if (url) {
      lines.close();
      return { url, child };
    }
  }
  throw new Error('the bench HTTP server exited before listening');
}

function firstText(result: { content?: unknown }): string {
  const first = Array.isArray(result.content) ? (result.content[0] as { text?: unknown } | undefined) : undefined;
  if (typeof first?.text !== 'string') throw new Error('tool result had no text content');
  return first.text;
}

async function atriumClient(url: string): Promise<HttpClient> {
  const connection = await startBenchConnection({ id: 'bench-http', transport: 'http', url, headers: {}, disabled: false });
  return { call: async (text) => firstText(await connection.callTool('echo', { text })), close: () => connection.stop() };
}

/**
 * The floor: one fetch per call with the headers and body Atrium sends to this server (the 2026-07-28
 * request envelope for the SDK server; the 2025 protocol-version header after initialize for the minimal
 * one), then `response.json()`. Neither server uses sessions, so there is no session id to carry.
 */
async function fetchClient(url: string, kind: ServerKind): Promise<HttpClient> {
  let nextId = 1;
  const post = async (headers: Record<string, string>, message: Record<string, unknown>): Promise<Response> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response;
  };
  const request = async (headers: Record<string, string>, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const response = await post(headers, { id: nextId++, method, params });
    const message = (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
    if (message.error) throw new Error(message.error.message);
    return message.result ?? {};
  };
  let callHeaders: Record<string, string>;
  let meta: Record<string, unknown> = {};
  if (kind === 'sdk') {
    callHeaders = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
    meta = {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': clientInfo,
        'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } },
        'io.modelcontextprotocol/logLevel': 'info',
      },
    };
  } else {
    const init = await request({}, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
    callHeaders = { 'mcp-protocol-version': String(init.protocolVersion) };
    await post(callHeaders, { method: 'notifications/initialized' });
  }
  return {
    call: async (text) => firstText(await request(callHeaders, 'tools/call', { name: 'echo', arguments: { text }, ...meta })),
    close: async () => {},
  };
}

async function sdkClient(url: string): Promise<HttpClient> {
  const client = new Client(clientInfo);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { call: async (text) => firstText(await client.callTool({ name: 'echo', arguments: { text } })), close: () => client.close() };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function measure(kind: ServerKind): Promise<Record<ClientName, { p50: number; p99: number; rounds: number[] }>> {
  const server = await startServer(kind);
  try {
    const clients: Record<ClientName, HttpClient> = {
      atrium: await atriumClient(server.url),
      fetch: await fetchClient(server.url, kind),
      sdkClient: await sdkClient(server.url),
    };
    const names = Object.keys(clients) as ClientName[];
    const latencies = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<ClientName, number[]>;
    // Each round's p50 too, so the spread over rounds is reported beside the pooled figure.
    const roundP50 = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<ClientName, number[]>;
    const sequential = async (name: ClientName, calls: number, into: number[]): Promise<void> => {
      for (let i = 0; i < calls; i++) {
        const text = `call ${i}`;
        const started = performance.now();
        if ((await clients[name].call(text)) !== text) throw new Error(`${name}: wrong echo`);
        into.push(performance.now() - started);
      }
    };
    for (const name of names) await sequential(name, WARMUP_CALLS, []);
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round so no client always runs first or last.
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + round) % names.length] as ClientName;
        const own: number[] = [];
        await sequential(name, CALLS / ROUNDS, own);
        latencies[name].push(...own);
        roundP50[name].push(percentile(own, 50));
      }
    }
    for (const name of names) await clients[name].close();
    return Object.fromEntries(names.map((name) => [name, { p50: percentile(latencies[name], 50), p99: percentile(latencies[name], 99), rounds: roundP50[name] }])) as Record<
      ClientName,
      { p50: number; p99: number; rounds: number[] }
    >;
  } finally {
    server.child.kill('SIGTERM');
  }
}

const results = { sdk: await measure('sdk'), minimal: await measure('minimal') };
const labels: Record<ServerKind, string> = { sdk: 'SDK McpServer (2026-07-28)', minimal: 'minimal JSON-RPC server (2025)' };

console.log(`Streamable HTTP round trip: ${CALLS} sequential tools/call echo per client and server, ${ROUNDS} interleaved rounds`);
console.table(
  Object.fromEntries(
    (Object.keys(results) as ServerKind[]).flatMap((kind) =>
      (Object.keys(results[kind]) as ClientName[]).map((name) => [
        `${kind} server / ${name}`,
        {
          'p50 ms': results[kind][name].p50.toFixed(3),
          'p99 ms': results[kind][name].p99.toFixed(3),
          'round p50s min / median / max': showSpread(results[kind][name].rounds, 'ms', 3),
          'p50 / fetch': (results[kind][name].p50 / results[kind].fetch.p50).toFixed(2),
        },
      ]),
    ),
  ),
);
let met = true;
for (const kind of Object.keys(results) as ServerKind[]) {
  const ratio = results[kind].atrium.p50 / results[kind].fetch.p50;
  if (ratio > TARGET) met = false;
  console.log(`a/b (atrium/fetch) against the ${labels[kind]}: p50 ${ratio.toFixed(2)}×  (bare SDK client: ${(results[kind].sdkClient.p50 / results[kind].fetch.p50).toFixed(2)}×)`);
}
console.log(`target: atrium p50 ≤ ${TARGET}× plain fetch against both servers ${met ? 'MET' : 'MISSED'}`);
