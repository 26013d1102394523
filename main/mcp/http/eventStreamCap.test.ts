import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiscardedEvent } from './eventStreamCap.ts';
import { throughBody } from './boundedBody.ts';
import { eventStreamCap, idOfDiscardedEvent } from './eventStreamCap.ts';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * Runs `pieces` through a cap; returns what came out, piece by piece, how much had come out after each
 * piece went in, and what the policy heard.
 */
async function through(
  pieces: string[],
  maxEventBytes: number,
  instead?: string,
): Promise<{ out: string[]; passedAfter: number[]; skipped: DiscardedEvent[]; overflows: number; failure: unknown }> {
  const skipped: DiscardedEvent[] = [];
  let overflows = 0;
  let source!: ReadableStreamDefaultController<Uint8Array>;
  const wire = new ReadableStream<Uint8Array>({ start: (controller) => void (source = controller) });
  const capped = throughBody(
    new Response(wire),
    eventStreamCap({
      maxEventBytes,
      onOverflow: () => {
        overflows++;
        return instead === undefined ? undefined : encode(instead);
      },
      onSkipped: (event) => {
        skipped.push(event);
        return encode('event: message\ndata: skipped\n\n');
      },
      onEndless: () => new Error('endless'),
    }),
  );
  const out: string[] = [];
  let failure: unknown;
  const reading = (async () => {
    for await (const chunk of capped.body!) out.push(decode(chunk));
  })().catch((error: unknown) => (failure = error));
  const passedAfter: number[] = [];
  for (const piece of pieces) {
    try {
      source.enqueue(encode(piece));
    } catch {
      // The filter ended the stream and cancelled its source.
    }
    await new Promise((resolve) => setImmediate(resolve));
    passedAfter.push(out.join('').length);
  }
  try {
    source.close();
  } catch {
    // Cancelled already.
  }
  await reading;
  return { out, passedAfter, skipped, overflows, failure };
}

const wires = {
  LF: 'event: message\ndata: {"a":1}\n\n: keep-alive\n\nid: 7\ndata: one\ndata: two\n\n',
  'CR LF': 'event: message\r\ndata: {"a":1}\r\n\r\n: keep-alive\r\n\r\nid: 7\r\ndata: one\r\ndata: two\r\n\r\n',
  CR: 'event: message\rdata: {"a":1}\r\r: keep-alive\r\rid: 7\rdata: one\rdata: two\r\r',
};

test('SSE: events within the cap pass unchanged and whole, whatever the chunk boundaries and line endings (split at every byte)', async () => {
  for (const [ending, wire] of Object.entries(wires)) {
    // Where each event ends: after its blank line (a CR LF whose LF is still to come counts as ended by its CR).
    const boundaries = new Set<number>();
    for (let at = 1; at <= wire.length; at++) if (/(\r\n\r\n|\n\n|\r\r|\r\n\r)$/.test(wire.slice(0, at))) boundaries.add(at);
    for (let cut = 0; cut <= wire.length; cut++) {
      const { out, passedAfter } = await through([wire.slice(0, cut), wire.slice(cut)], 1024);
      assert.equal(out.join(''), wire, `${ending}, cut at ${cut}`);
      const [passed = 0] = passedAfter;
      // Every whole event of the first part has gone out, and nothing of the next one.
      const expected = Math.max(0, ...[...boundaries].filter((at) => at <= cut));
      assert.equal(passed, expected, `${ending}, cut at ${cut}`);
    }
  }
});

test('SSE: an event ending in CR whose LF comes in the next chunk is passed at once, and the LF right after it', async () => {
  const { out, passedAfter } = await through(['data: a\r\n\r', '\ndata: b', '\n\n'], 1024);
  assert.equal(out.join(''), 'data: a\r\n\r\ndata: b\n\n');
  assert.deepEqual(passedAfter, ['data: a\r\n\r'.length, 'data: a\r\n\r\n'.length, 'data: a\r\n\r\ndata: b\n\n'.length]);
});

test('SSE: an event past the cap, when the policy ends the stream there, is replaced and nothing after it passes', async () => {
  const { out, overflows } = await through(['data: small\n\ndata: ', 'x'.repeat(600), 'x'.repeat(600), '\n\ndata: after\n\n'], 1000, 'data: instead\n\n');
  assert.equal(overflows, 1);
  assert.deepEqual(out, ['data: small\n\n', 'data: instead\n\n']);
});

test('SSE: an event past the cap is otherwise skipped to its end, with its edges kept, and reading goes on', async () => {
  const big = `{"result":{"text":"${'y'.repeat(1200)}"},"jsonrpc":"2.0","id":41}`;
  const pieces = ['data: before\n\nevent: message\nid: 9\ndata: ', big.slice(0, 750), big.slice(750), '\n\ndata: after\n\n'];
  const { out, skipped } = await through(pieces, 1000);
  assert.deepEqual(out.join(''), 'data: before\n\nevent: message\ndata: skipped\n\ndata: after\n\n');
  assert.equal(skipped.length, 1);
  assert.equal(idOfDiscardedEvent(skipped[0]!), 41, 'found at the end of its data');
  const idFirst = `{"jsonrpc":"2.0","id":"call-7","result":{"text":"${'y'.repeat(1200)}"}}`;
  const first = await through([`data: ${idFirst}\n\n`], 1000);
  assert.equal(idOfDiscardedEvent(first.skipped[0]!), 'call-7', 'found at the start of its data');
});

test('SSE: a stream that ends in the middle of an event past the cap still reports it', async () => {
  const { skipped, out } = await through(['data: ', 'z'.repeat(5000)], 1000);
  assert.equal(skipped.length, 1);
  assert.deepEqual(out, ['event: message\ndata: skipped\n\n']);
});

test('SSE: an event skipped past the cap that goes on for as long again fails the stream', async () => {
  const { out, skipped, failure } = await through(['data: before\n\ndata: ', ...Array.from({ length: 30 }, () => 'z'.repeat(100))], 1000);
  assert.deepEqual(out, ['data: before\n\n']);
  assert.deepEqual(skipped, []);
  assert.match(String(failure), /endless/);
});
