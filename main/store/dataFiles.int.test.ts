// The fault suite: every file Atrium keeps in its data folder, damaged every way a disk, a crash or a
// person can damage it, then the real product run on it (the `atrium` CLI as a child process, and the
// browser mode's host process). Atrium must start, say which file, what is wrong and where the copy is,
// keep the damaged copy byte for byte, and overwrite nothing. "Unreadable" is a folder in the file's
// place: tests run as root, whom file permissions do not stop.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { buildRenderer, rendererRebuildReason, repoRoot } from '../api/rendererBuild.ts';
import { encryptedFileSecrets } from './encryptedSecrets.ts';

const homes: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  homes.push(dir);
  return dir;
}
after(async () => {
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

const SERVERS = `${JSON.stringify({ note: 'mine', mcpServers: { remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', disabled: true } } }, null, 2)}\n`;
const PROVIDERS = `${JSON.stringify({ providers: [{ id: 'claude', kind: 'anthropic' }] }, null, 2)}\n`;
const KEPT_FILES = ['servers.json', 'providers.json', 'secrets.key', 'secrets.enc'] as const;

/** A data folder as a person's looks after some use: servers, a provider, a stored key, a workspace. */
let template: string;
before(async () => {
  template = await tempDir('atrium-faults-template-');
  await writeFile(join(template, 'servers.json'), SERVERS);
  await writeFile(join(template, 'providers.json'), PROVIDERS);
  await encryptedFileSecrets(template).set('claude', 'sk-ant-kept-safe');
  const made = await runAtriumCli(template, ['workspaces', 'set', 'seeded', template]);
  assert.equal(made.code, 0, made.stderr);
});

async function homeFromTemplate(): Promise<string> {
  const home = await tempDir('atrium-faults-');
  await cp(template, home, { recursive: true });
  // As an older Atrium (or a copy) left it: readable by everyone. Every run must make it private again.
  await chmod(home, 0o755);
  for (const name of await readdir(home)) await chmod(join(home, name), 0o644);
  return home;
}

type Damage = 'missing' | 'empty' | 'truncated' | 'zero-filled' | 'invalid' | 'wrong shape' | 'unreadable';
const DAMAGES: readonly Damage[] = ['missing', 'empty', 'truncated', 'zero-filled', 'invalid', 'wrong shape', 'unreadable'];

/** What a damaged file holds: bytes, or (unreadable) a folder holding the good bytes. */
type Damaged = { bytes: Buffer } | { folderWith: Buffer } | { missing: true };

async function damage(home: string, file: string, how: Damage): Promise<Damaged> {
  const path = join(home, file);
  const good = await readFile(path);
  const put = async (bytes: Buffer): Promise<Damaged> => {
    await writeFile(path, bytes);
    return { bytes };
  };
  switch (how) {
    case 'missing':
      await rm(path);
      return { missing: true };
    case 'empty':
      return put(Buffer.alloc(0));
    case 'truncated':
      return put(good.subarray(0, Math.floor(good.length / 2)));
    case 'zero-filled':
      return put(Buffer.alloc(good.length));
    case 'invalid':
      if (file.endsWith('.json')) return put(Buffer.from(good.toString('utf8').replace('":', '"'), 'utf8'));
      if (file === 'secrets.key') return put(Buffer.from('this is not a key\n'));
      if (file === 'secrets.enc') return put(randomBytes(good.length));
      return put(Buffer.from('this is not a database\n'.repeat(300)));
    case 'wrong shape':
      if (file === 'servers.json') return put(Buffer.from('{"mcpServers":[1,2,3]}'));
      if (file === 'providers.json') return put(Buffer.from('{"providers":{"claude":1}}'));
      if (file === 'secrets.key') return put(Buffer.from(JSON.stringify({ key: good.toString('utf8') })));
      if (file === 'secrets.enc') return put(encryptWithHomeKey(await readFile(join(home, 'secrets.key'), 'utf8'), '[1,2,3]'));
      return put(await otherProgramsDatabase(home, good.length));
    case 'unreadable':
      await rm(path);
      await mkdir(path);
      await writeFile(join(path, 'inside'), good);
      return { folderWith: good };
  }
}

/** Valid encryption with the home's own key, of content that is not a table of keys. */
function encryptWithHomeKey(keyText: string, plain: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyText.trim(), 'base64'), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** A sound SQLite database that is not Atrium's: its own `migrations` table of another shape. */
async function otherProgramsDatabase(home: string, _size: number): Promise<Buffer> {
  const path = join(home, 'other.db');
  const db = new DatabaseSync(path);
  db.exec('CREATE TABLE migrations (version INTEGER); INSERT INTO migrations VALUES (7);');
  db.close();
  const bytes = await readFile(path);
  await rm(path);
  return bytes;
}

/** The real command that reads each file. */
const COMMAND: Record<string, string[]> = {
  'servers.json': ['servers'],
  'providers.json': ['servers'],
  'atrium.db': ['workspaces'],
  'secrets.key': ['sign-out', 'remote'],
  'secrets.enc': ['sign-out', 'remote'],
};

async function copiesOf(home: string, file: string): Promise<string[]> {
  return (await readdir(home)).filter((name) => name.startsWith(`${file}.damaged-`));
}

async function assertKeptByteForByte(home: string, copy: string, damaged: Damaged): Promise<void> {
  if ('bytes' in damaged) assert.deepEqual(await readFile(join(home, copy)), damaged.bytes, `${copy} is the damaged file, byte for byte`);
  if ('folderWith' in damaged) assert.deepEqual(await readFile(join(home, copy, 'inside')), damaged.folderWith, `${copy} is the folder, as it was`);
}

/** The folder 0700 and everything in it 0600 (folders 0700), whatever the files were left with. */
async function assertPrivate(home: string): Promise<void> {
  if (process.platform === 'win32') return;
  assert.equal((await stat(home)).mode & 0o777, 0o700, 'the data folder is private');
  for (const name of await readdir(home)) {
    const info = await stat(join(home, name));
    assert.equal(info.mode & 0o777, info.isDirectory() ? 0o700 : 0o600, `${name} is private`);
  }
}

/** Whether the file damaged this way is nothing to report (SQLite takes an empty file for a new database). */
const harmless = (file: string, how: Damage) => how === 'missing' || (file === 'atrium.db' && how === 'empty');
/** The files a person edits by hand: a one-shot command leaves them where they are and stops. */
const editedByPerson = (file: string) => file === 'servers.json' || file === 'providers.json';

async function assertInPlace(home: string, file: string, damaged: Damaged): Promise<void> {
  if ('bytes' in damaged) assert.deepEqual(await readFile(join(home, file)), damaged.bytes, `${file} is where it was, byte for byte`);
  if ('folderWith' in damaged) assert.deepEqual(await readFile(join(home, file, 'inside')), damaged.folderWith, `${file} is where it was`);
}

for (const file of [...KEPT_FILES, 'atrium.db']) {
  describe(`${file}, damaged`, () => {
    for (const how of DAMAGES) {
      const outcome = editedByPerson(file) && !harmless(file, how) ? 'stops and leaves it where it is' : 'starts, keeps the damaged copy byte for byte';
      test(`${how}: atrium says what happened, ${outcome} and overwrites nothing`, async () => {
        const home = await homeFromTemplate();
        const others = new Map<string, Buffer>();
        for (const other of KEPT_FILES) if (other !== file) others.set(other, await readFile(join(home, other)));
        const damaged = await damage(home, file, how);

        const run = await runAtriumCli(home, COMMAND[file] as string[]);
        const stops = editedByPerson(file) && !harmless(file, how);
        assert.equal(run.code, stops ? 1 : 0, `atrium ${COMMAND[file]?.join(' ')} ran:\n${run.stdout}\n${run.stderr}`);
        assert.ok(!run.stderr.includes('\0') && !run.stdout.includes('\0'), 'no raw NUL byte reaches the terminal');
        assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');

        const copies = await copiesOf(home, file);
        if (stops) {
          // A file the person edits is theirs to fix: where it is, as it was, with what is wrong and where.
          assert.deepEqual(copies, [], 'nothing is set aside');
          await assertInPlace(home, file, damaged);
          assert.match(run.stderr, new RegExp(`${file.replace('.', '\\.')} could not be read: .*\\.\n {2}It was left as it is; the command stopped and changed nothing\\.\n`));
          assert.ok(run.stderr.includes(`Fix it in ${join(home, file)}, then run the command again.`), run.stderr);
          assert.doesNotMatch(run.stdout, /No servers configured/, 'no command ran as if the file were empty');
          if (how === 'invalid') assert.match(run.stderr, /line \d+, column \d+/);
        } else if (harmless(file, how)) {
          assert.deepEqual(copies, []);
          assert.doesNotMatch(run.stderr, new RegExp(`${file.replace('.', '\\.')} could not be read`));
        } else {
          assert.equal(copies.length, 1, `one copy of ${file} kept aside: ${copies.join(', ')}`);
          const [copy] = copies as [string];
          await assertKeptByteForByte(home, copy, damaged);
          // Which file, what is wrong, where the copy is, and how to recover.
          assert.match(run.stderr, new RegExp(`${file.replace('.', '\\.')} could not be read: `));
          assert.ok(run.stderr.includes(join(home, copy)), `the message says where the copy is:\n${run.stderr}`);
          assert.match(run.stderr, /To recover, either:\n {2}- /);
          if (file.endsWith('.json') && how === 'invalid') assert.match(run.stderr, /line \d+, column \d+/);
        }

        await assertPrivate(home);
        for (const [other, bytes] of others) {
          if (file === 'secrets.key' && other === 'secrets.enc' && !harmless(file, how)) {
            // The secrets a lost key encrypted go aside with it, untouched: restoring both brings every key back.
            const [encCopy] = await copiesOf(home, 'secrets.enc');
            assert.ok(encCopy, 'secrets.enc is kept aside with its key');
            assert.deepEqual(await readFile(join(home, encCopy)), bytes);
            continue;
          }
          if (file === 'secrets.key' && other === 'secrets.enc' && how === 'missing') {
            // No key at all: the secrets it encrypted cannot be read, so they are kept aside, not replaced.
            const [encCopy] = await copiesOf(home, 'secrets.enc');
            assert.ok(encCopy && (await readFile(join(home, encCopy))).equals(bytes), 'secrets.enc is kept aside, as it was');
            continue;
          }
          assert.deepEqual(await readFile(join(home, other)), bytes, `${other} is unchanged`);
        }
      });
    }
  });
}

describe('a damaged servers.json is never made worse by adding servers', () => {
  test('an import into a damaged servers.json leaves it where it is and adds nothing; once it is fixed, the import adds to what it holds', async () => {
    const home = await homeFromTemplate();
    // A run that reads the good file: `.bak` is what it read.
    assert.equal((await runAtriumCli(home, ['servers'])).code, 0);
    assert.equal(await readFile(join(home, 'servers.json.bak'), 'utf8'), SERVERS);
    const truncated = Buffer.from(SERVERS.slice(0, 40));
    await writeFile(join(home, 'servers.json'), truncated);
    const shared = join(await tempDir('atrium-faults-shared-'), 'shared.json');
    await writeFile(shared, JSON.stringify({ mcpServers: { first: { command: 'node', args: ['a.js'] } } }));
    const refused = await runAtriumCli(home, ['import', shared]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /servers\.json could not be read: line \d+, column \d+: the file ends too early/);
    assert.match(refused.stderr, /Put back the last version Atrium read: copy servers\.json\.bak over servers\.json\./);
    assert.deepEqual(await readFile(join(home, 'servers.json')), truncated, 'the damaged file is where it was, as it was');
    assert.deepEqual(await copiesOf(home, 'servers.json'), []);
    assert.equal(await readFile(join(home, 'servers.json.bak'), 'utf8'), SERVERS, 'damaged content never becomes the .bak');

    // The person follows the advice; the import then adds to what the file holds.
    await cp(join(home, 'servers.json.bak'), join(home, 'servers.json'));
    const added = await runAtriumCli(home, ['import', shared]);
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(Object.keys((JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { mcpServers: object }).mcpServers), ['remote', 'first']);
  });
});

describe('the data folder is private', () => {
  test('a new data folder is 0700 and every file in it 0600, SQLite’s -wal and -shm included', { skip: process.platform === 'win32' }, async () => {
    const home = join(await tempDir('atrium-faults-new-'), 'Atrium');
    const host = await startWebHost(home);
    try {
      assert.equal((await stat(home)).mode & 0o777, 0o700);
      const names = await readdir(home);
      for (const name of ['atrium.db', 'atrium.db-wal', 'atrium.db-shm']) assert.ok(names.includes(name), `${name} exists while the host runs: ${names.join(', ')}`);
      for (const name of names) {
        const info = await stat(join(home, name));
        assert.equal(info.mode & 0o777, info.isDirectory() ? 0o700 : 0o600, `${name} is private`);
      }
    } finally {
      await host.stop();
    }
  });

  test('a folder and files left readable by others are tightened when Atrium starts', { skip: process.platform === 'win32' }, async () => {
    const home = await homeFromTemplate();
    assert.equal((await stat(home)).mode & 0o777, 0o755);
    assert.equal((await runAtriumCli(home, ['servers'])).code, 0);
    await assertPrivate(home);
  });

  test("a program installed with a server stays runnable after Atrium starts, and the installed servers' folder is private", { skip: process.platform === 'win32' }, async () => {
    const home = await homeFromTemplate();
    // As @anthropic-ai/mcpb unpacks a bundle whose server is a program: its modes from the archive.
    const server = join(home, 'bundles', 'tool-1.0.0-0123456789ab', 'server');
    await mkdir(server, { recursive: true, mode: 0o755 });
    await chmod(join(home, 'bundles'), 0o755);
    await writeFile(join(server, 'tool'), '#!/bin/sh\necho ok\n', { mode: 0o755 });
    const ownScript = join(home, 'my-tool.sh');
    await writeFile(ownScript, '#!/bin/sh\n', { mode: 0o755 });
    assert.equal((await runAtriumCli(home, ['servers'])).code, 0);
    assert.equal((await stat(join(home, 'bundles'))).mode & 0o777, 0o700, "the installed servers' folder is private");
    assert.equal((await stat(join(server, 'tool'))).mode & 0o777, 0o755, 'what is inside it keeps the modes its bundle gave it');
    assert.equal((await stat(ownScript)).mode & 0o777, 0o700, 'a program of the data folder is private, and still runnable by its owner');
  });
});

describe('the browser mode', () => {
  before(async () => {
    if (await rendererRebuildReason()) await buildRenderer();
  });

  test('with every data file damaged at once, it starts and its log names each file, the copy and the way back', async () => {
    const home = await homeFromTemplate();
    await damage(home, 'servers.json', 'invalid');
    await damage(home, 'providers.json', 'zero-filled');
    await damage(home, 'secrets.key', 'truncated');
    await damage(home, 'atrium.db', 'zero-filled');
    const host = await startWebHost(home);
    try {
      for (const file of ['servers.json', 'providers.json', 'secrets.key', 'atrium.db']) {
        const [copy] = await copiesOf(home, file);
        assert.ok(copy, `${file} is kept aside`);
        assert.ok(host.stderr().includes(`${file} could not be read`), `the log names ${file}:\n${host.stderr()}`);
        assert.ok(host.stderr().includes(join(home, copy)), `the log says where ${file}'s copy is`);
      }
      assert.ok(!host.stderr().includes('\0'));
    } finally {
      await host.stop();
    }
  });
});

/** The browser mode's host process (`serveWeb.ts`) on `home`, once it printed its address. */
async function startWebHost(home: string): Promise<{ stderr(): string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['main/web/serveWeb.ts', '--port', '0', '--no-build'], {
    cwd: repoRoot,
    env: { ...process.env, ATRIUM_HOME: home, HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host printed no address within 30 s:\n${stderr}`)), 30_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('Atrium is running at ')) return;
      clearTimeout(timer);
      resolve();
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the host exited before it printed its address:\n${stderr}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
