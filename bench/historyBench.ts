// History insert and load of a 5,000-message conversation, written as the app writes it: each person's
// message its own commit, each reply begun, streamed in small deltas and finished through HistoryStore (so
// a long reply also gets its incremental flushes). Reference: a raw node:sqlite loop making the same commits
// with hand-written statements, in a file of its own. With synchronous=FULL every commit waits for an fsync,
// so the numbers mostly measure the disk; the ratio to raw is what the store's own code costs.
//   node bench/historyBench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatContent } from '../shared/conversation.ts';
import { openDatabase } from '../main/store/database.ts';
import type { Database } from '../main/store/database.ts';
import { HistoryStore, historyMigrations } from '../main/store/historyStore.ts';
import { showSpread } from './spread.ts';

const MESSAGES = 5_000;
const DELTA_CHARS = 24;
const FLUSH_CHARS = 2_048;
const LOADS = 7;
const ROUNDS = 3;

// Deterministic "realistic" sizes: questions of 40–600 characters, replies of 200–6,000 in ~24-char deltas.
let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
}
const words = 'the of and to in is that for it as with was on be by this are from or have an they which you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(' ');
function prose(chars: number): string {
  let text = '';
  while (text.length < chars) text += `${words[Math.floor(random() * words.length)] ?? 'word'} `;
  return text.slice(0, chars);
}
const conversation = Array.from({ length: MESSAGES / 2 }, () => ({ question: prose(40 + Math.floor(random() * 560)), reply: prose(200 + Math.floor(random() ** 2 * 5_800)) }));
const deltasOf = (reply: string) => Array.from({ length: Math.ceil(reply.length / DELTA_CHARS) }, (_, i) => reply.slice(i * DELTA_CHARS, (i + 1) * DELTA_CHARS));

const dir = mkdtempSync(join(tmpdir(), 'atrium-history-bench-'));

function insertWithStore(db: Database): { ms: number; store: HistoryStore; conversationId: string } {
  // A long interval: in a tight loop only the character threshold flushes, as in a fast real stream.
  const store = new HistoryStore(db, { flushIntervalMs: 60_000, flushChars: FLUSH_CHARS });
  const started = performance.now();
  const { id } = store.createConversation({ title: 'bench', providerId: 'anthropic', model: 'claude' });
  for (const turn of conversation) {
    store.appendUserMessage(id, [{ type: 'text', text: turn.question }]);
    const replyId = store.beginAssistantMessage(id);
    for (const delta of deltasOf(turn.reply)) store.appendAssistantText(replyId, delta);
    store.finishAssistantMessage(replyId, { status: 'complete', usage: { inputTokens: 1_000, outputTokens: 300 } });
  }
  return { ms: performance.now() - started, store, conversationId: id };
}

/** The same commits, by hand: insert, insert, an update per FLUSH_CHARS of reply, the final update. */
function insertRaw(db: Database): { ms: number; commits: number } {
  const insert = db.prepare('INSERT INTO messages (id, conversation_id, seq, role, content, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE messages SET content = ?, updated_at = ? WHERE id = ?');
  const finish = db.prepare('UPDATE messages SET content = ?, status = ?, usage = ?, updated_at = ? WHERE id = ?');
  const started = performance.now();
  db.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run('raw', 'bench', Date.now(), Date.now());
  let seq = 0;
  let commits = 1;
  for (const turn of conversation) {
    insert.run(`u${seq}`, 'raw', ++seq, 'user', JSON.stringify([{ type: 'text', text: turn.question }]), 'complete', Date.now(), Date.now());
    const replyId = `a${seq}`;
    insert.run(replyId, 'raw', ++seq, 'assistant', '[]', 'streaming', Date.now(), Date.now());
    let text = '';
    let pending = 0;
    for (const delta of deltasOf(turn.reply)) {
      text += delta;
      pending += delta.length;
      if (pending >= FLUSH_CHARS) {
        update.run(JSON.stringify([{ type: 'text', text }]), Date.now(), replyId);
        pending = 0;
        commits++;
      }
    }
    finish.run(JSON.stringify([{ type: 'text', text }]), 'complete', JSON.stringify({ inputTokens: 1_000, outputTokens: 300 }), Date.now(), replyId);
    commits += 3;
  }
  return { ms: performance.now() - started, commits };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function time(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

type Round = { rawInsertMs: number; rawLoadMs: number; insertMs: number; loadMs: number };
let commits = 0;

function round(index: number, place: (name: string) => string): Round {
  const raw = () => {
    const rawDb = openDatabase(place(`raw-${index}.db`), historyMigrations);
    const inserted = insertRaw(rawDb);
    commits = inserted.commits;
    const rawSelect = rawDb.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq');
    const rawLoadMs = median(Array.from({ length: LOADS }, () => time(() => rawSelect.all('raw').map((row) => JSON.parse(String(row.content)) as ChatContent[]))));
    rawDb.close();
    return { rawInsertMs: inserted.ms, rawLoadMs };
  };
  const viaStore = () => {
    const db = openDatabase(place(`history-${index}.db`), historyMigrations);
    const { ms: insertMs, store, conversationId } = insertWithStore(db);
    const loaded = store.loadMessages(conversationId);
    if (loaded.length !== MESSAGES) throw new Error(`loaded ${loaded.length} messages, expected ${MESSAGES}`);
    const loadMs = median(Array.from({ length: LOADS }, () => time(() => store.loadMessages(conversationId))));
    store.close();
    db.close();
    return { insertMs, loadMs };
  };
  // Rounds alternate which goes first, each in fresh files, so a slow moment of the disk hits both.
  if (index % 2 === 0) {
    const first = raw();
    return { ...first, ...viaStore() };
  }
  const first = viaStore();
  return { ...raw(), ...first };
}

function report(label: string, rounds: Round[]): void {
  const of = (key: keyof Round) => median(rounds.map((one) => one[key]));
  const insertRatio = median(rounds.map((one) => one.insertMs / one.rawInsertMs));
  const loadRatio = median(rounds.map((one) => one.loadMs / one.rawLoadMs));
  console.log(`${label}: medians of ${rounds.length} rounds`);
  console.log(`  insert via HistoryStore: ${(of('insertMs') / 1000).toFixed(2)} s total, ${((of('insertMs') / MESSAGES) * 1000).toFixed(0)} µs per message`);
  console.log(`  insert raw node:sqlite:  ${(of('rawInsertMs') / 1000).toFixed(2)} s total, ${((of('rawInsertMs') / MESSAGES) * 1000).toFixed(0)} µs per message`);
  console.log(`  insert ratio store/raw: ${insertRatio.toFixed(2)}× (median of per-round ratios; min / median / max ${showSpread(rounds.map((one) => one.insertMs / one.rawInsertMs), '×', 2)})`);
  console.log(`  load ${MESSAGES} messages via loadMessages: ${of('loadMs').toFixed(1)} ms (min / median / max over rounds ${showSpread(rounds.map((one) => one.loadMs), 'ms', 1)}); raw SELECT + JSON.parse: ${of('rawLoadMs').toFixed(1)} ms; ratio ${loadRatio.toFixed(2)}×`);
}

try {
  const onDisk = Array.from({ length: ROUNDS }, (_, index) => round(index, (name) => join(dir, name)));
  // The same work without a disk: what the store's own code costs next to raw statements.
  const inMemory = Array.from({ length: ROUNDS }, (_, index) => round(index, () => ':memory:'));
  const replyChars = conversation.reduce((sum, turn) => sum + turn.reply.length, 0);
  console.log(`history: ${MESSAGES} messages, replies average ${Math.round(replyChars / conversation.length)} chars in ${DELTA_CHARS}-char deltas, ~${commits} commits`);
  report(`file in ${tmpdir()}, WAL, synchronous=FULL (every commit waits for fsync)`, onDisk);
  report('in-memory database (no disk: CPU cost only)', inMemory);
  // On disk the fsyncs dominate and both sides pay them; what the store adds must stay small beside them,
  // and a long conversation must open without a visible wait.
  const insertRatio = median(onDisk.map((one) => one.insertMs / one.rawInsertMs));
  const loadMs = median(onDisk.map((one) => one.loadMs));
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `targets: insert on disk ≤ 1.5× raw node:sqlite (${insertRatio.toFixed(2)}×) ${verdict(insertRatio <= 1.5)}; ` +
      `load ${MESSAGES} messages ≤ 100 ms (${loadMs.toFixed(1)} ms) ${verdict(loadMs <= 100)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
