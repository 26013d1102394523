// The setup every provider integration test shares: scripted fakes closed after the file, a secrets
// source, requests and event collection, and a port nothing listens on. Assertions stay in the tests.

import { createServer } from 'node:net';
import { after } from 'node:test';
import type { FakeLlmServer, FakeTurn, RecordedRequest } from '../../../e2e/fixtures/llm/fakeServerBase.ts';
import type { SecretSource } from '../../store/secrets.ts';
import type { ModelRequest, ModelStreamEvent } from '../llmTypes.ts';
import type { ChatMessage } from '../../../shared/conversation.ts';

type StartFake = (script: FakeTurn[], options?: { models?: string[] }) => Promise<FakeLlmServer>;

/** Starts fakes with `start`; every one is closed when the test file ends. */
export function fakeStarter(start: StartFake): StartFake {
  const fakes: FakeLlmServer[] = [];
  after(() => Promise.all(fakes.map((fake) => fake.close())));
  return async (script, options) => {
    const server = await start(script, options);
    fakes.push(server);
    return server;
  };
}

export function secrets(values: Record<string, string>): SecretSource {
  return { get: async (name) => values[name] };
}

/** A request builder for `model`, with 1024 tokens and no tools unless `extra` says otherwise. */
export function turnFor(model: string): (messages: ChatMessage[], extra?: Partial<ModelRequest>) => ModelRequest {
  return (messages, extra = {}) => ({ model, messages, tools: [], maxTokens: 1024, ...extra });
}

export const userSays = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'text', text }] });

export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Collects a stream started with `signal`, aborting it at the first text delta; `abortedAt` is when (performance.now()). */
export async function collectAbortingAtFirstText(start: (signal: AbortSignal) => AsyncIterable<ModelStreamEvent>): Promise<{ events: ModelStreamEvent[]; abortedAt: number }> {
  const controller = new AbortController();
  const events: ModelStreamEvent[] = [];
  let abortedAt = 0;
  for await (const event of start(controller.signal)) {
    events.push(event);
    if (event.type === 'text_delta' && abortedAt === 0) {
      abortedAt = performance.now();
      controller.abort();
    }
  }
  return { events, abortedAt };
}

export const ofType = <T extends ModelStreamEvent['type']>(events: ModelStreamEvent[], type: T) =>
  events.filter((e): e is Extract<ModelStreamEvent, { type: T }> => e.type === type);

/** The recorded requests whose path starts with `prefix`. */
export function requestsTo(server: FakeLlmServer, prefix: string): RecordedRequest[] {
  return server.requests.filter((r) => r.path.startsWith(prefix));
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}
