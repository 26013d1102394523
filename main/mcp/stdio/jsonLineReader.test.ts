import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { JsonLineReader } from './jsonLineReader.ts';
import type { MessageTooLargeError } from '../oversizedMessage.ts';

type Collected = { messages: JSONRPCMessage[]; noise: string[]; oversize: MessageTooLargeError[] };

function collectingReader(options: { maxMessageBytes?: number } = {}): { reader: JsonLineReader } & Collected {
  const collected: Collected = { messages: [], noise: [], oversize: [] };
  const reader = new JsonLineReader(
    {
      onMessage: (message) => collected.messages.push(message),
      onNoise: (line) => collected.noise.push(line),
      onOversize: (error) => collected.oversize.push(error),
    },
    options,
  );
  return { reader, ...collected };
}

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' } as const;
const result = { jsonrpc: '2.0', id: 'a', result: { text: 'héllo 🌍 日本' } } as const;

test('MCP 2024-11-05 Transports (stdio): messages are delimited by newlines, whatever the chunk boundaries (split at every byte)', () => {
  const wire = Buffer.from(`${JSON.stringify(ping)}\n${JSON.stringify(result)}\n`);
  for (let cut = 0; cut <= wire.length; cut++) {
    const { reader, messages, noise } = collectingReader();
    reader.push(wire.subarray(0, cut));
    reader.push(wire.subarray(cut));
    assert.deepEqual(messages, [ping, result], `cut at byte ${cut}`);
    assert.deepEqual(noise, []);
  }
});

test('MCP 2024-11-05 Transports (stdio): messages are UTF-8, so a multi-byte character split across chunks decodes intact', () => {
  const { reader, messages } = collectingReader();
  const wire = Buffer.from(`${JSON.stringify(result)}\n`);
  for (const byte of wire) reader.push(Buffer.from([byte]));
  assert.deepEqual(messages, [result]);
});

test('a CRLF line ending is read as a newline', () => {
  const { reader, messages, noise } = collectingReader();
  reader.push(Buffer.from(`${JSON.stringify(ping)}\r\n`));
  assert.deepEqual(messages, [ping]);
  assert.deepEqual(noise, []);
});

test('empty and blank lines are skipped silently', () => {
  const { reader, messages, noise } = collectingReader();
  reader.push(Buffer.from(`\n\r\n   \n${JSON.stringify(ping)}\n\n`));
  assert.deepEqual(messages, [ping]);
  assert.deepEqual(noise, []);
});

test('MCP 2024-11-05 Transports (stdio): a server MUST NOT write non-MCP output to stdout, so such lines are reported as noise and reading goes on', () => {
  const { reader, messages, noise } = collectingReader();
  const lines = [
    'Server listening...',
    '{"not": "jsonrpc"}',
    '[1,2,3]',
    '"a string"',
    '{"jsonrpc":"1.0","id":1,"method":"x"}',
    '{"jsonrpc":"2.0","id":1}',
    '{"jsonrpc":"2.0","id":{},"result":{}}',
    JSON.stringify(ping),
  ];
  reader.push(Buffer.from(lines.map((line) => `${line}\n`).join('')));
  assert.deepEqual(messages, [ping]);
  assert.deepEqual(noise, lines.slice(0, -1));
});

test('MCP 2024-11-05 Base Protocol (JSON-RPC 2.0): requests, notifications, results and errors (with a null id) are all messages', () => {
  const { reader, messages, noise } = collectingReader();
  const all = [
    ping,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 7, result: {} },
    { jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'nope' } },
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } },
  ];
  reader.push(Buffer.from(all.map((message) => `${JSON.stringify(message)}\n`).join('')));
  assert.deepEqual(messages, all);
  assert.deepEqual(noise, []);
});

test('a long noise line is reported shortened, not whole', () => {
  const { reader, noise } = collectingReader();
  reader.push(Buffer.from(`${'x'.repeat(100_000)}\n`));
  assert.equal(noise.length, 1);
  assert.ok((noise[0] ?? '').length < 3000);
});

test('a message past the size cap is discarded with a clear error, and the next message is read', () => {
  const { reader, messages, oversize } = collectingReader({ maxMessageBytes: 1024 * 1024 });
  const huge = JSON.stringify({ jsonrpc: '2.0', id: 2, result: { text: 'y'.repeat(3 * 1024 * 1024) } });
  const wire = Buffer.from(`${JSON.stringify(ping)}\n${huge}\n${JSON.stringify(result)}\n`);
  for (let offset = 0; offset < wire.length; offset += 64 * 1024) reader.push(wire.subarray(offset, offset + 64 * 1024));
  assert.deepEqual(messages, [ping, result]);
  assert.equal(oversize.length, 1);
  assert.equal(oversize[0]?.message, 'message from server exceeded 1 MB and was discarded');
});

test('a message past the cap arriving in one chunk with its newline is discarded too', () => {
  const { reader, messages, oversize } = collectingReader({ maxMessageBytes: 100 });
  reader.push(Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { t: 'z'.repeat(200) } })}\n${JSON.stringify(ping)}\n`));
  assert.deepEqual(messages, [ping]);
  assert.equal(oversize.length, 1);
});

test('flush() reads a last message that lacks its newline', () => {
  const { reader, messages } = collectingReader();
  reader.push(Buffer.from(JSON.stringify(ping)));
  assert.deepEqual(messages, []);
  reader.flush();
  assert.deepEqual(messages, [ping]);
});

test('reading is linear: a 50 MB line in 64 KB chunks is copied once, not once per chunk', (t) => {
  // The SDK's ReadBuffer re-copies everything buffered on every chunk (quadratic); counting the bytes
  // Buffer.concat copies proves the reader's cost is linear without timing anything.
  let copied = 0;
  const concat = Buffer.concat.bind(Buffer);
  t.mock.method(Buffer, 'concat', (list: readonly Uint8Array[], length?: number) => {
    const result = concat(list, length);
    copied += result.length;
    return result;
  });
  let received = 0;
  const reader = new JsonLineReader({
    onMessage: () => received++,
    onNoise: () => assert.fail('unexpected noise'),
    onOversize: () => assert.fail('unexpected oversize'),
  });
  const totalBytes = 50 * 1024 * 1024;
  const prefix = '{"jsonrpc":"2.0","id":1,"result":{"text":"';
  const suffix = '"}}\n';
  const wire = Buffer.alloc(totalBytes, 'a');
  wire.write(prefix, 0);
  wire.write(suffix, totalBytes - suffix.length);
  for (let offset = 0; offset < wire.length; offset += 64 * 1024) reader.push(wire.subarray(offset, offset + 64 * 1024));
  assert.equal(received, 1);
  assert.equal(copied, totalBytes - 1, 'every byte of the line (less its newline) is copied exactly once');
});

test('an oversized message names its JSON-RPC id, whether the id comes first or last, so its request can fail at once', () => {
  const big = 'x'.repeat(4096);
  for (const [line, id] of [
    [`{"jsonrpc":"2.0","id":7,"result":{"text":"${big}"}}\n`, 7],
    [`{"result":{"content":[{"type":"text","text":"${big}","id":1}]},"jsonrpc":"2.0","id":"req-9"}\n`, 'req-9'],
    [`{"result":{"text":"${big}"}}\n`, undefined],
  ] as const) {
    for (const chunkSize of [64, 100_000]) {
      const errors: MessageTooLargeError[] = [];
      const reader = new JsonLineReader({ onMessage: () => assert.fail('too large to deliver'), onNoise: () => assert.fail('not noise'), onOversize: (e) => errors.push(e) }, { maxMessageBytes: 1024 });
      const wire = Buffer.from(line);
      for (let offset = 0; offset < wire.length; offset += chunkSize) reader.push(wire.subarray(offset, offset + chunkSize));
      assert.equal(errors.length, 1);
      assert.equal(errors[0]?.messageId, id, `chunk ${chunkSize}: ${line.slice(0, 40)}`);
    }
  }
});
