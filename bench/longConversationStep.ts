// Host overhead per model step in a long conversation (issue 18 §3), on disk as shipped (atrium.db: WAL,
// synchronous=FULL). A conversation of 100, 1,000 and 5,000 earlier messages continues with a turn of
// four model steps, each calling a tool that answers at once, against an in-process model that answers at
// once: what is timed between one model request and the next is the host's own work — saving the step
// (reply, call, result), checking the call, and building the next request from the conversation.
// Target: < 5 ms per step at 5,000 messages. Prints min / median / max over the steps of 10 turns.
//   node bench/longConversationStep.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolSummary } from '../shared/domain.ts';
import { runTurn } from '../main/chat/agentLoop.ts';
import { historyTurnStore } from '../main/chat/chatService.ts';
import type { LlmProvider, ModelStreamEvent } from '../main/chat/llmTypes.ts';
import { scriptedTools } from '../main/chat/testKits/scriptedTools.ts';
import { openDatabase } from '../main/store/database.ts';
import { HistoryStore, historyMigrations } from '../main/store/historyStore.ts';
import { showSpread, spreadOf } from './spread.ts';
import { fillConversation } from './longConversationFixture.ts';

const SIZES = [100, 1_000, 5_000];
const STEPS = 4;
// Ten turns, so each median is over 30 steps: with 9 a single slow fsync moved it by a millisecond.
const TURNS = 10;
const tool: ToolSummary = { serverId: 'calc', name: 'add', modelName: 'calc__add', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, enabled: true };

/** A model that answers at once: a tool call for each step but the last, then words; when each request came is kept. */
function instantModel(stamps: number[], turn: number): LlmProvider {
  let step = 0;
  return {
    id: 'instant',
    kind: 'anthropic',
    defersTools: false,
    listModels: async () => ['m'],
    async *stream(): AsyncIterable<ModelStreamEvent> {
      stamps.push(performance.now());
      step += 1;
      if (step % STEPS !== 0) yield { type: 'tool_call', id: `call-${turn}-${step}`, name: 'calc__add', input: { a: step, b: 1 } };
      else yield { type: 'text_delta', text: 'That is all.' };
      yield { type: 'done', stopReason: step % STEPS !== 0 ? 'tool_use' : 'end_turn', usage: { inputTokens: 1, outputTokens: 1 } };
    },
  };
}

console.log('earlier messages   host time per model step (ms): min / median / max');
let medianAtLargest = 0;
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-long-'));
  try {
    const history = new HistoryStore(openDatabase(join(dir, 'atrium.db'), historyMigrations));
    const conversationId = history.createConversation({ title: 'long' }).id;
    fillConversation(history, conversationId, size);
    const gaps: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const stamps: number[] = [];
      // The real tool-call pipeline, over one tool answered in process.
      const kit = scriptedTools([tool]);
      await runTurn(
        { conversationId, userContent: [{ type: 'text', text: 'Add them up once more.' }], provider: instantModel(stamps, turn), model: 'm', tools: kit.plan(conversationId), signal: new AbortController().signal },
        { store: historyTurnStore(history), tools: kit.tools, calls: kit.calls, onEvent: () => undefined },
      );
      for (let i = 1; i < stamps.length; i++) gaps.push((stamps[i] ?? 0) - (stamps[i - 1] ?? 0));
    }
    if (size === SIZES.at(-1)) medianAtLargest = spreadOf(gaps).median;
    console.log(`${String(size).padStart(16)}   ${showSpread(gaps, '', 2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`target: < 5 ms per step at ${SIZES.at(-1)?.toLocaleString('en')} messages (median) ${medianAtLargest < 5 ? 'met' : 'MISSED'}`);
