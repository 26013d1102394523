// A step of a long conversation as the person waits for it: a real `atrium chat
// --conversation <id>` continues a 5,002-message conversation with one turn of STEPS model requests,
// against a scripted fake Anthropic server; between the steps the model calls a tool of a fast local MCP
// server (bench/servers/minimalServer.mjs). The fake server records when each step's answer ended and when
// the next request arrived: that gap is what Atrium needs to save the step, run the call, and build and
// send the next request. The baseline is a bare client on the official SDKs (bench/rawLongConversationTurn.ts)
// sending the same history the same way, over the same fake server and the same tool. Each runs as its own
// process (rounds interleaved, which goes first alternating); Atrium's conversation starts from the same
// 5,002 messages each round. The first request of a turn (which reads the conversation) is not a gap.
// Target: Atrium's median gap ≤ the bare client's + 5 ms. Prints min / median / max of each.
// Runs the bundle when it is current (`npm run build:node`), and says which it ran.
//   node bench/longConversationRequest.ts [--rounds N]     (BENCH_PROF=DIR also writes atrium's CPU profiles)
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FakeLlmServer, FakeTurn } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { approveServers } from '../e2e/fixtures/approvedServers.ts';
import { DATABASE_FILE_NAME, openConversationStores } from '../main/app/conversationStores.ts';
import { historyTurnStore } from '../main/chat/chatService.ts';
import { toAnthropicMessage } from '../main/chat/providers/anthropicProvider.ts';
import { bundleStaleReason } from '../main/bundle/builtOrSource.mjs';
import { fillConversation } from './longConversationFixture.ts';
import { showSpread, spreadOf } from './spread.ts';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 5;
/** Model requests in the measured turn: STEPS − 1 gaps per run. */
const STEPS = 8;
const MESSAGES = 5_002;
const TARGET_MS = 5;
const atrium = fileURLToPath(new URL('../bin/atrium.mjs', import.meta.url));
const raw = fileURLToPath(new URL('./rawLongConversationTurn.ts', import.meta.url));
const server = fileURLToPath(new URL('./servers/minimalServer.mjs', import.meta.url));
const run = promisify(execFile);

const script = (): FakeTurn[] => [
  ...Array.from({ length: STEPS - 1 }, (_, step): FakeTurn => ({ toolCalls: [{ name: 'calc__echo', input: { text: `step ${step + 1}` } }] })),
  { text: 'That is all of them.' },
];

/** Each step's end to the next request's arrival, in ms, from what the fake server recorded. */
function gapsOf(llm: FakeLlmServer): number[] {
  const posts = llm.requests.filter((request) => request.method === 'POST');
  if (posts.length !== STEPS) throw new Error(`the turn made ${posts.length} model requests, not ${STEPS}`);
  return posts.slice(1).map((request, i) => {
    const endedAt = posts[i]?.endedAt;
    if (endedAt === undefined) throw new Error('a step has no end recorded');
    return Number(request.arrivedAt - endedAt) / 1e6;
  });
}

async function measure(side: 'bare' | 'atrium', home: string, conversationId: string, historyFile: string): Promise<number[]> {
  const llm = await startFakeAnthropic(script());
  try {
    if (side === 'bare') {
      await run(process.execPath, [raw, llm.url, historyFile, server]);
    } else {
      // The conversation as it was before any round: every round continues the same 5,002 messages.
      const db = join(home, DATABASE_FILE_NAME);
      copyFileSync(`${db}.pristine`, db);
      for (const suffix of ['-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
      // BENCH_PROF=DIR: a CPU profile of each atrium run into DIR.
      const profile = process.env['BENCH_PROF'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['BENCH_PROF'], '--cpu-prof-interval', '100'] : [];
      const args = [...profile, atrium, 'chat', 'Add them up once more.', '--conversation', conversationId, '--provider', 'anthropic', '--model', 'claude-bench', '--base-url', llm.url, '--approve', 'all'];
      const { stdout } = await run(process.execPath, args, { env: { ...process.env, ATRIUM_HOME: home, ANTHROPIC_API_KEY: 'sk-bench' } });
      if (!stdout.includes('That is all of them.')) throw new Error(`atrium chat did not finish the turn: ${stdout.slice(-500)}`);
    }
    return gapsOf(llm);
  } finally {
    await llm.close();
  }
}

const home = mkdtempSync(join(tmpdir(), 'atrium-long-request-'));
try {
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers: { calc: { command: process.execPath, args: [server] } } }));
  await approveServers(home);
  const stores = openConversationStores(home);
  const conversationId = stores.history.createConversation({ title: 'long' }).id;
  fillConversation(stores.history, conversationId, MESSAGES - 2);
  stores.history.appendUserMessage(conversationId, [{ type: 'text', text: 'And the total?' }]);
  const reply = stores.history.beginAssistantMessage(conversationId);
  stores.history.finishAssistantMessage(reply, { status: 'complete', content: [{ type: 'text', text: 'The total is 12,504.' }] });
  // The bare client's copy of the same history, in the API's format (made once, before any timing).
  const history = historyTurnStore(stores.history).loadChatMessages(conversationId);
  const historyFile = join(home, 'history.json');
  writeFileSync(historyFile, JSON.stringify(history.map((message) => toAnthropicMessage(message, []))));
  stores.close();
  copyFileSync(join(home, DATABASE_FILE_NAME), join(home, `${DATABASE_FILE_NAME}.pristine`));

  // One of each first: the disk cache and Node's compile cache.
  await measure('bare', home, conversationId, historyFile);
  await measure('atrium', home, conversationId, historyFile);
  const gaps = { bare: [] as number[], atrium: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['bare', 'atrium'] as const) : (['atrium', 'bare'] as const);
    for (const side of order) gaps[side].push(...(await measure(side, home, conversationId, historyFile)));
  }
  const stale = bundleStaleReason();
  console.log(
    `a step's end to the next model request, continuing a ${MESSAGES.toLocaleString('en')}-message conversation, ${ROUNDS} interleaved rounds of a ${STEPS}-request turn, ` +
      `${stale ? `atrium from the source (no current bundle: ${stale})` : 'atrium from the bundle in dist/node/'} (min / median / max):`,
  );
  console.log(`  bare client (official SDKs)    ${showSpread(gaps.bare, 'ms', 1)}`);
  console.log(`  atrium chat --conversation     ${showSpread(gaps.atrium, 'ms', 1)}`);
  const bare = spreadOf(gaps.bare).median;
  const added = spreadOf(gaps.atrium).median - bare;
  console.log(`target: atrium ≤ bare client + ${TARGET_MS} ms per request (${added >= 0 ? '+' : ''}${added.toFixed(1)} ms) ${added <= TARGET_MS ? 'met' : 'MISSED'}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
