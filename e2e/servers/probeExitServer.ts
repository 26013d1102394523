// A 2025-era stdio server of the strict kind: anything before `initialize` makes it exit, as some
// servers written before the 2026-07-28 revision do with the discovery probe. With --answers-probe it is
// of the usual kind instead: it answers the probe "method not found"; with --ignores-probe, of the quiet
// kind: it leaves the probe unanswered, and answers initialize as ever. Each start is written to the file
// named by its first argument, and each probe received as a "probe" line, so a test can count how often
// a host started and probed it.
//   node e2e/servers/probeExitServer.ts STARTS_FILE [--answers-probe | --ignores-probe]
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const startsFile = process.argv[2];
const answersProbe = process.argv.includes('--answers-probe');
const ignoresProbe = process.argv.includes('--ignores-probe');
if (startsFile) appendFileSync(startsFile, `${process.pid}\n`);
let initialized = false;
const reply = (id: unknown, result: unknown) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  let message: { id?: unknown; method?: string };
  try {
    message = JSON.parse(line) as typeof message;
  } catch {
    process.exit(1);
  }
  if (message.method === 'server/discover') {
    if (startsFile) appendFileSync(startsFile, 'probe\n');
    if (answersProbe) {
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })}\n`);
      continue;
    }
    if (ignoresProbe) continue;
  }
  if (!initialized && message.method !== 'initialize') process.exit(1);
  if (message.method === 'initialize') {
    initialized = true;
    reply(message.id, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'probe-exit', version: '1.0.0' } });
  } else if (message.method === 'tools/list') {
    reply(message.id, { tools: [{ name: 'hello', inputSchema: { type: 'object' } }] });
  } else if (message.id !== undefined) {
    reply(message.id, {});
  }
}
