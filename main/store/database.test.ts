import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase, syncToDisk, withoutDiskWait } from './database.ts';

const NORMAL = 1;
const FULL = 2;

test('only the writes given to withoutDiskWait skip waiting for the disk; every other commit waits, after a failure too', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-database-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const db = openDatabase(join(dir, 'atrium.db'), [{ id: 'notes', sql: 'CREATE TABLE notes (text TEXT NOT NULL)' }]);
  const level = () => (db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;
  const write = (text: string) => db.prepare('INSERT INTO notes (text) VALUES (?)').run(text);
  assert.equal(level(), FULL);
  withoutDiskWait(db, () => {
    write('a step');
    assert.equal(level(), NORMAL);
    // Nested (a write inside another's work): the outer one is still relaxed when the inner ends.
    withoutDiskWait(db, () => write('its audit line'));
    assert.equal(level(), NORMAL);
  });
  assert.equal(level(), FULL);
  assert.throws(() => withoutDiskWait(db, () => write(null as unknown as string)), /NOT NULL/);
  assert.equal(level(), FULL);
  syncToDisk(db);
  db.close();
  // What was written without waiting is all there.
  const again = openDatabase(join(dir, 'atrium.db'), [{ id: 'notes', sql: 'CREATE TABLE notes (text TEXT NOT NULL)' }]);
  assert.deepEqual(
    again.prepare('SELECT text FROM notes').all().map((row) => (row as { text: string }).text),
    ['a step', 'its audit line'],
  );
  again.close();
});
