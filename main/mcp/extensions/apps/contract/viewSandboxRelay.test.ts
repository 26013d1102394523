import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_VIEW_MESSAGE_CHARS, relayScript, viewGuardSource, viewMessageCheckSource } from './viewSandboxRelay.ts';

// The relay's parts are JavaScript source served to the browser; here they run as they are.
const viewMessageProblem = new Function(`${viewMessageCheckSource}; return viewMessageProblem;`)() as (value: unknown) => string | null;
const withViewGuard = new Function(`${viewGuardSource}; return withViewGuard;`)() as (html: string) => string;

test('the relay script is valid JavaScript', () => {
  assert.doesNotThrow(() => new Function(relayScript));
});

test('a view’s JSON-RPC message within the cap is passed on', () => {
  assert.equal(viewMessageProblem({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'refresh', arguments: { points: [1, 2.5, null, true], nested: { a: 'b' } }, skipped: undefined } }), null);
  assert.equal(viewMessageProblem({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 120 } }), null);
  assert.equal(viewMessageProblem({ text: 'x'.repeat(MAX_VIEW_MESSAGE_CHARS - 100) }), null);
});

test('a message over the cap is judged too large as soon as the cap is passed, however large it is', () => {
  const huge = 'x'.repeat(150 * 1024 * 1024);
  const started = performance.now();
  assert.equal(viewMessageProblem({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 1, pad: huge } }), 'too-large');
  assert.ok(performance.now() - started < 100, 'judged without reading the whole message');
  assert.equal(viewMessageProblem({ many: Array.from({ length: 300_000 }, () => 1) }), 'too-large');
  assert.equal(viewMessageProblem({ parts: Array.from({ length: 5 }, () => 'y'.repeat(MAX_VIEW_MESSAGE_CHARS / 4)) }), 'too-large');
  let deep: unknown = {};
  for (let i = 0; i < 100; i++) deep = { deep };
  assert.equal(viewMessageProblem(deep), 'too-large');
});

test('anything a structured clone carries that JSON does not is not passed on', () => {
  for (const value of [new Map(), new Set(), new ArrayBuffer(8), new Uint8Array(4), new Date(0), /x/, { n: Number.NaN }, { n: Number.POSITIVE_INFINITY }, 10n]) {
    assert.equal(viewMessageProblem({ jsonrpc: '2.0', method: 'x', params: { value } }), 'not-json', String(value));
  }
});

test('the guard goes first in the view’s document, after its doctype so it keeps standards mode', () => {
  const guarded = withViewGuard('<!DOCTYPE html><html><body>view</body></html>');
  assert.match(guarded, /^<!DOCTYPE html><script>\(function \(\) \{ var names = \["RTCPeerConnection"/);
  assert.ok(guarded.endsWith('</script><html><body>view</body></html>'));
  assert.match(withViewGuard('\uFEFF <!-- built --> <!doctype html>\n<p>x</p>'), /^\uFEFF <!-- built --> <!doctype html><script>/);
  assert.match(withViewGuard('<p>no doctype</p>'), /^<script>.*<\/script><p>no doctype<\/p>$/);
  assert.match(withViewGuard('<p>a</p><!doctype html>'), /^<script>/, 'a doctype later in the page is not its doctype');
});
