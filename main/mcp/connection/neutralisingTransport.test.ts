import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { NeutralisingTransport, VIEW_PAGE_READ } from './neutralisingTransport.ts';
import { markHidden } from '../../../shared/serverText.ts';

/** An inner transport that records what is sent and lets the test deliver what a server answers. */
function fakeServer() {
  const sent: JSONRPCMessage[] = [];
  const inner: Transport = { start: async () => undefined, close: async () => undefined, send: async (message) => void sent.push(message) };
  const notes: string[] = [];
  const transport = new NeutralisingTransport(inner, { add: (_level, _source, text) => void notes.push(text) });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void received.push(message);
  return { transport, sent, received, notes, answer: (message: JSONRPCMessage) => inner.onmessage?.(message) };
}

/** The first content of a resources/read answer as the host got it. */
const contentOf = (message: JSONRPCMessage | undefined) => (message as unknown as { result: { contents: { text: string; _meta: { note: string } }[] } }).result.contents[0];

const page = (id: number, text: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { contents: [{ uri: 'ui://v/page.html', mimeType: 'text/html;profile=mcp-app', text, _meta: { note: 'a\u202eb' } }] } });

test('a view page read for the sandbox: the flag never reaches the server, and only its answer keeps the page as written', async () => {
  const { transport, sent, received, answer } = fakeServer();
  await transport.send({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'ui://v/page.html', _meta: { [VIEW_PAGE_READ]: true, 'io.modelcontextprotocol/logLevel': 'info' } } });
  assert.deepEqual(sent[0], { jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'ui://v/page.html', _meta: { 'io.modelcontextprotocol/logLevel': 'info' } } });
  answer(page(7, '<script>/\u202e/</script>'));
  const kept = contentOf(received[0]);
  assert.equal(kept?.text, '<script>/\u202e/</script>');
  assert.equal(kept?._meta.note, markHidden('a\u202eb'), 'what else the answer says is neutralised');
  // The same page, answered again under that id or read any other way, is neutralised.
  answer(page(7, '<script>/\u202e/</script>'));
  await transport.send({ jsonrpc: '2.0', id: 8, method: 'resources/read', params: { uri: 'ui://v/page.html' } });
  answer(page(8, '<script>/\u202e/</script>'));
  for (const message of received.slice(1)) assert.equal(contentOf(message)?.text, markHidden('<script>/\u202e/</script>'));
});

test('a server cannot have its answer kept as written by naming a ui:// page of the view type, nor by a request of its own with the id', async () => {
  const { transport, received, answer } = fakeServer();
  await transport.send({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'ui://v/page.html', _meta: { [VIEW_PAGE_READ]: true } } });
  answer({ jsonrpc: '2.0', id: 3, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } });
  answer(page(9, 'x\u202ey'));
  assert.equal(contentOf(received[1])?.text, markHidden('x\u202ey'));
});

test("what the server is sent carries none of Atrium's markers: a marked name goes back plain", async () => {
  const { transport, sent, notes, answer } = fakeServer();
  await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: markHidden('look\u200Bup'), arguments: {} } });
  assert.deepEqual(sent[0], { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup', arguments: {} } });
  answer({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x\u202ey' }] } });
  assert.deepEqual(notes, ["[Atrium removed 1 hidden character from the server's answer: bidirectional controls]"]);
});
