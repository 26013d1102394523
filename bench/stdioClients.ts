// The clients the stdio benches compare, each talking to its own server: Atrium's stack, the bare SDK client
// with the SDK's stdio transport, and a raw newline-JSON client that is the floor any client can reach over
// a pipe. The server is bench/servers/minimalServer.mjs (hand-written, so its own cost does not cap what is
// measured) unless ATRIUM_BENCH_SERVER=sdk picks bench/servers/trivialServer.ts, built on the SDK.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StdioProcessTransport } from '../main/mcp/stdio/stdioProcessTransport.ts';
import { buildServerEnvironment } from '../main/mcp/stdio/serverEnvironment.ts';
import { startBenchConnection } from './benchConnection.ts';

export type BenchClient = {
  readonly name: string;
  /** Calls a tool and resolves with the length of the first text content, so every client does the same work. */
  call(tool: 'echo' | 'blob', args: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
};

const serverPath = fileURLToPath(new URL(process.env['ATRIUM_BENCH_SERVER'] === 'sdk' ? './servers/trivialServer.ts' : './servers/minimalServer.mjs', import.meta.url));
/** Which server the clients talk to, for the benches to say. */
export const benchServerName = process.env['ATRIUM_BENCH_SERVER'] === 'sdk' ? 'the SDK-built trivialServer' : 'the hand-written minimalServer';
const clientInfo = { name: 'atrium-bench', version: '0.0.0' };

function firstTextLength(result: { content?: unknown }): number {
  const first = Array.isArray(result.content) ? (result.content[0] as { text?: unknown } | undefined) : undefined;
  if (typeof first?.text !== 'string') throw new Error('tool result had no text content');
  return first.text.length;
}

function sdkClientAdapter(name: string, client: Client, lastError: () => string | undefined): BenchClient {
  return {
    name,
    async call(tool, args) {
      try {
        return firstTextLength(await client.callTool({ name: tool, arguments: args }, { timeout: 120_000 }));
      } catch (error) {
        // The transport's own error (e.g. "exceeded max buffer size") says more than the "connection closed" that follows it.
        const reason = lastError() ?? (error instanceof Error ? error.message : String(error));
        throw new Error(reason, { cause: error });
      }
    },
    close: () => client.close(),
  };
}

/**
 * (a) Atrium: the full McpConnection the host uses (its state machine, the session's SDK Client for the
 * handshake, its ToolCallChannel for tools/call, Atrium's transport), called as the API calls it for the
 * agent loop and the CLI: with an abort signal of its own and a progress hook for each call.
 */
export async function createAtriumClientForBench(): Promise<BenchClient> {
  const connection = await startBenchConnection({ id: 'bench', transport: 'stdio', command: process.execPath, args: [serverPath], env: {}, disabled: false });
  const onProgress = () => undefined;
  return {
    name: 'atrium',
    call: async (tool, args) => firstTextLength(await connection.callTool(tool, args, { timeoutMs: 120_000, signal: new AbortController().signal, onProgress })),
    close: () => connection.stop(),
  };
}

/** (b) The SDK as shipped: Client + StdioClientTransport, default 10 MiB buffer. */
export async function createSdkClientForBench(): Promise<BenchClient> {
  let lastError: string | undefined;
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'ignore' });
  const client = new Client(clientInfo);
  client.onerror = (error) => {
    lastError = error.message;
  };
  await client.connect(transport);
  return sdkClientAdapter('sdk', client, () => lastError);
}

/** (c) The floor: spawn, write JSON lines, join chunks only at a newline, JSON.parse, match ids. No validation. */
export async function createRawClientForBench(): Promise<BenchClient> {
  const child = spawn(process.execPath, [serverPath], { stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map<number, { resolve(result: { content?: unknown }): void; reject(error: Error): void }>();
  let nextId = 1;
  let chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      chunks.push(chunk.subarray(start, newline));
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; result?: { content?: unknown }; error?: { message: string } };
      chunks = [];
      start = newline + 1;
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter || message.id === undefined) continue;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result ?? {});
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  child.on('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('server exited'));
    pending.clear();
  });
  const request = (method: string, params: unknown): Promise<{ content?: unknown }> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await request('tools/list', {});
  return {
    name: 'raw',
    call: async (tool, args) => firstTextLength(await request('tools/call', { name: tool, arguments: args })),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/**
 * Atrium's transport without the SDK Client on top: the same id matching as the raw client, so its gap to raw
 * is what StdioProcessTransport itself costs, and the rest of (a)'s gap belongs to the protocol layer.
 */
export async function createAtriumTransportOnlyForBench(): Promise<BenchClient> {
  const pending = new Map<number, { resolve(result: { content?: unknown }): void; reject(error: Error): void }>();
  let nextId = 1;
  let lastError: string | undefined;
  const transport = new StdioProcessTransport(
    { command: process.execPath, args: [serverPath], env: await buildServerEnvironment() },
    { onStderrLine: () => {}, onNoise: () => {}, onExit: () => {} },
  );
  transport.onmessage = (message) => {
    if (!('id' in message) || typeof message.id !== 'number') return;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if ('error' in message) waiter.reject(new Error(message.error.message));
    else if ('result' in message) waiter.resolve(message.result as { content?: unknown });
  };
  transport.onerror = (error) => {
    lastError = error.message;
  };
  transport.onclose = () => {
    for (const waiter of pending.values()) waiter.reject(new Error(lastError ?? 'server exited'));
    pending.clear();
  };
  const request = (method: string, params: Record<string, unknown>): Promise<{ content?: unknown }> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      transport.send({ jsonrpc: '2.0', id, method, params }).catch(reject);
    });
  await transport.start();
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo });
  await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await request('tools/list', {});
  return {
    name: 'atrium-transport',
    call: async (tool, args) => firstTextLength(await request('tools/call', { name: tool, arguments: args })),
    close: () => transport.close(),
  };
}

export const clientFactories = {
  atrium: createAtriumClientForBench,
  sdk: createSdkClientForBench,
  raw: createRawClientForBench,
  atriumTransport: createAtriumTransportOnlyForBench,
} as const;

export type ClientName = keyof typeof clientFactories;

/** Sequential echo calls, one at a time: each call's time in ms, also added to `into`. */
export async function sequentialCalls(client: BenchClient, calls: number, into: number[] = []): Promise<number[]> {
  const own: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await client.call('echo', { text: `call ${i}` });
    const took = performance.now() - started;
    own.push(took);
    into.push(took);
  }
  return own;
}

/** Calls per second with `inFlight` echo calls outstanding at all times. */
export async function pipelinedCalls(client: BenchClient, calls: number, inFlight: number): Promise<number> {
  let issued = 0;
  const worker = async (): Promise<void> => {
    while (issued < calls) {
      issued++;
      await client.call('echo', { text: `call ${issued}` });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (calls / (performance.now() - started)) * 1000;
}
