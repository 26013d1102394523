import assert from 'node:assert/strict';
import { test } from 'node:test';
import { viewMessageDropped } from '../contract/viewSandboxRelay.ts';
import type { ViewStop } from './viewTransport.ts';
import { ViewTransport } from './viewTransport.ts';

// The page's window, as far as the transport uses it: where messages arrive.
const page = new EventTarget();
(globalThis as { window?: unknown }).window = page;

const relay = { postMessage: () => undefined } as unknown as Window;
const SANDBOX = 'http://127.0.0.1:7432';

/** A message event as the browser makes one: its data, the window it came from and that window's origin. */
function arrive(data: unknown, source: unknown = relay, origin = SANDBOX): void {
  page.dispatchEvent(Object.assign(new Event('message'), { data, source, origin }));
}

async function transport() {
  const stops: ViewStop[] = [];
  const taken: unknown[] = [];
  let now = 0;
  const channel = new ViewTransport({ frame: relay, sandboxOrigin: SANDBOX, onstop: (why) => stops.push(why), now: () => now });
  channel.onmessage = (message) => void taken.push(message);
  await channel.start();
  return { channel, stops, taken, later: (ms: number) => (now += ms) };
}

test('a view’s JSON-RPC message from its own relay frame is taken; from another window or origin, or not JSON-RPC, it is not', async () => {
  const { channel, taken } = await transport();
  arrive({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 10 } });
  arrive({ jsonrpc: '2.0', method: 'x' }, {});
  arrive({ jsonrpc: '2.0', method: 'x' }, relay, 'http://127.0.0.1:9999');
  arrive({ method: 'no version' });
  assert.equal(taken.length, 1);
  assert.deepEqual(channel.dropped, { foreign: 0, malformed: 1, tooLarge: 0, tooFast: 0 });
  await channel.close();
});

test('the relay’s word that it dropped a message over the cap is counted, never passed on; at the third the view is stopped', async () => {
  const { channel, stops, taken } = await transport();
  const dropped = { jsonrpc: '2.0', method: viewMessageDropped, params: { reason: 'too-large' } };
  arrive(dropped);
  arrive({ jsonrpc: '2.0', method: viewMessageDropped, params: { reason: 'not-json' } });
  arrive(dropped);
  assert.deepEqual(stops, []);
  arrive(dropped);
  assert.deepEqual(stops, ['too-large']);
  assert.deepEqual(taken, []);
  arrive({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 10 } });
  assert.deepEqual(taken, [], 'a stopped view is no longer heard');
  await channel.close();
});

test('a view that keeps sending faster than it may is stopped once, as flooding', async () => {
  const { channel, stops, taken } = await transport();
  for (let i = 0; i < 1000; i++) arrive({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: i } });
  assert.equal(taken.length, 200, 'the burst is taken, the rest dropped');
  assert.deepEqual(stops, ['flood']);
  await channel.close();
});
