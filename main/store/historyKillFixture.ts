// Run by historyStore.int.test.ts and killed with SIGKILL: saves a user message, then streams a reply
// flushing one chunk at a time, saying on stdout what has been acknowledged. Usage: node historyKillFixture.ts <db>
import { openDatabase } from './database.ts';
import { HistoryStore, historyMigrations } from './historyStore.ts';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: historyKillFixture.ts <database file>');
// Only the explicit flush below writes streamed text, so every "flushed" line matches one transaction.
const store = new HistoryStore(openDatabase(path, historyMigrations), { flushIntervalMs: 3_600_000, flushChars: Number.MAX_SAFE_INTEGER });
const { id } = store.createConversation({ title: 'killed' });
const user = store.appendUserMessage(id, [{ type: 'text', text: 'please stream' }]);
process.stdout.write(`acked ${user.id}\n`);
const replyId = store.beginAssistantMessage(id);
process.stdout.write(`begun ${replyId}\n`);
// Bounded, so an orphan (its test died before killing it) ends by itself.
for (let n = 1; n <= 5_000; n++) {
  store.appendAssistantText(replyId, `<${n}>${'x'.repeat(500)}`);
  store.flush();
  process.stdout.write(`flushed ${n}\n`);
  // Let the parent's kill arrive between flushes as well as during them.
  if (n % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
}
