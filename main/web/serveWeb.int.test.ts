// `npm run web` as a person starts it: the real serveWeb process (and npm), on temporary data folders.
// What it prints, how it exits, when it builds the window, and that one data folder gets one host.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { buildRenderer, rendererManifestName, rendererOutDir, rendererRebuildReason, repoRoot } from '../api/rendererBuild.ts';
import { DEFAULT_WEB_PORT } from './webPort.ts';

const waitMs = 30_000;
const readyLine = /^Atrium is running at (http:\/\/127\.0\.0\.1:(\d+)\/#token=[\w-]+)$/;

interface WebRun {
  /** Every line printed on stdout so far. */
  lines: string[];
  stderr(): string;
  /** Resolves with the first stdout line that matches, or rejects when the process ends or time runs out. */
  lineMatching(pattern: RegExp): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

function startWeb(command: string, args: string[], env: Record<string, string>): WebRun {
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const wake of waiters) wake();
  });
  return {
    lines,
    stderr: () => stderr,
    exited,
    lineMatching: (pattern) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no line matching ${pattern} within ${waitMs} ms:\n${lines.join('\n')}\n${stderr}`)), waitMs);
        const check = () => {
          for (const line of lines) {
            const match = pattern.exec(line);
            if (match) return finish(undefined, match);
          }
          if (ended) finish(new Error(`the process ended without a line matching ${pattern}:\n${lines.join('\n')}\n${stderr}`));
        };
        const finish = (error?: Error, match?: RegExpExecArray) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(match as RegExpExecArray);
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      // The whole group: `npm run web` runs serveWeb as its child.
      if (!ended) process.kill(-(child.pid as number), 'SIGTERM');
      return within(exited, 'the host to stop after SIGTERM').catch((error: unknown) => {
        if (!ended) process.kill(-(child.pid as number), 'SIGKILL');
        throw error;
      });
    },
  };
}

const serveWeb = (args: string[], env: Record<string, string>) => startWeb(process.execPath, ['main/web/serveWeb.ts', ...args], env);

const homes: string[] = [];
async function freshHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'atrium-web-'));
  homes.push(home);
  return home;
}
after(async () => {
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

before(async () => {
  // These tests start the window as it is built; an outdated build is made again first, once.
  if (await rendererRebuildReason()) await buildRenderer();
});

describe('one host per data folder', () => {
  test('a second start on the same data folder says where the first one runs and exits non-zero, starting nothing', async () => {
    const home = await freshHome();
    const first = serveWeb(['--port', '0', '--no-build'], { ATRIUM_HOME: home });
    try {
      const [, , port] = await first.lineMatching(readyLine);
      const second = serveWeb(['--port', '0', '--no-build'], { ATRIUM_HOME: home });
      const code = await within(second.exited, 'the second start to end').finally(() => second.stop());
      assert.notEqual(code, 0, 'the second start fails');
      assert.ok(!second.lines.some((line) => readyLine.test(line)), `the second start serves nothing:\n${second.lines.join('\n')}`);
      assert.match(second.stderr(), new RegExp(`Atrium already runs on the data folder ${home} at http://127\\.0\\.0\\.1:${port}/ \\(process \\d+\\)`));
      assert.doesNotMatch(second.stderr(), /token=/, 'the token is not written anywhere but the first terminal');
      assert.match(second.stderr(), /ATRIUM_HOME=/, 'it says how to run a separate one');
    } finally {
      assert.equal(await first.stop(), 0);
    }
    // Stopping gives the folder up: a new start works.
    const again = serveWeb(['--port', '0', '--no-build'], { ATRIUM_HOME: home });
    await again.lineMatching(readyLine);
    assert.equal(await again.stop(), 0);
  });

  test('a lock left by a process that is gone (a crash) does not keep the folder', async () => {
    const home = await freshHome();
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = gone.pid as number;
    await new Promise((resolve) => gone.once('close', resolve));
    await writeFile(join(home, 'host.lock'), JSON.stringify({ pid, address: 'http://127.0.0.1:1/', startedAt: new Date().toISOString() }));
    const run = serveWeb(['--port', '0', '--no-build'], { ATRIUM_HOME: home });
    await run.lineMatching(readyLine);
    const lock = JSON.parse(await readFile(join(home, 'host.lock'), 'utf8')) as { pid: number };
    assert.notEqual(lock.pid, pid, 'the new host holds the folder');
    assert.equal(await run.stop(), 0);
  });
});

describe('what npm run web prints', () => {
  test('the address, then the data folder and how to stop', async () => {
    const home = await freshHome();
    const run = serveWeb(['--port', '0', '--no-build'], { ATRIUM_HOME: home });
    try {
      await run.lineMatching(/^Press Ctrl\+C to stop\.$/);
      assert.match(run.lines[0] ?? '', readyLine);
      assert.ok(run.lines.includes(`Data folder: ${home}`), run.lines.join('\n'));
    } finally {
      assert.equal(await run.stop(), 0);
    }
  });

  test('--open hands the address to the system browser opener', async () => {
    const home = await freshHome();
    const bin = await freshHome();
    const opened = join(bin, 'opened.txt');
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > "${opened}.part" && mv "${opened}.part" "${opened}"\n`);
    await chmod(join(bin, 'xdg-open'), 0o755);
    const run = serveWeb(['--port', '0', '--no-build', '--open'], { ATRIUM_HOME: home, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` });
    try {
      const [, url] = await run.lineMatching(readyLine);
      await run.lineMatching(/^Opened it in your browser\.$/);
      assert.equal(await eventually(() => readFile(opened, 'utf8')), url);
    } finally {
      assert.equal(await run.stop(), 0);
    }
  });

  test(`without --port it listens on ${DEFAULT_WEB_PORT}; when that is taken, it says so and takes a free port`, async () => {
    const home = await freshHome();
    // Taken by this test, or already by someone else: either way it is taken while the host starts.
    const blocker: Server | null = await new Promise((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(null));
      server.listen({ port: DEFAULT_WEB_PORT, host: '127.0.0.1' }, () => resolve(server));
    });
    const run = serveWeb(['--no-build'], { ATRIUM_HOME: home });
    try {
      const [, , port] = await run.lineMatching(readyLine);
      assert.notEqual(Number(port), DEFAULT_WEB_PORT);
      // The explanation may come a moment after the address line: it is waited for, not looked up at once.
      const [said] = await run.lineMatching(new RegExp(`^Port ${DEFAULT_WEB_PORT}, Atrium's usual one, is in use.*$`));
      assert.equal(said, `Port ${DEFAULT_WEB_PORT}, Atrium's usual one, is in use (by another program or another Atrium), so this run uses port ${port}.`);
    } finally {
      assert.equal(await run.stop(), 0);
      blocker?.close();
    }
  });

  test('a port asked for with --port that is taken is a clear error, not another port', async () => {
    const home = await freshHome();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const port = (blocker.address() as { port: number }).port;
    const run = serveWeb(['--port', String(port), '--no-build'], { ATRIUM_HOME: home });
    try {
      assert.equal(await within(run.exited, 'the start to end').finally(() => run.stop()), 1);
      assert.match(run.stderr(), new RegExp(`port ${port} is taken by another program: choose another with --port N`));
    } finally {
      blocker.close();
    }
  });
});

describe('building the window', () => {
  test('npm run web starts without rebuilding the window when its sources did not change', async () => {
    const home = await freshHome();
    const index = join(rendererOutDir, 'index.html');
    const builtAt = (await stat(index)).mtimeMs;
    const started = Date.now();
    const run = startWeb('npm', ['run', '--silent', 'web', '--', '--port', '0'], { ATRIUM_HOME: home });
    try {
      await run.lineMatching(readyLine);
      process.stdout.write(`# npm run web printed its address after ${Date.now() - started} ms with no build\n`);
      assert.ok(!run.lines.some((line) => line.startsWith('Building')), run.lines.join('\n'));
      assert.equal((await stat(index)).mtimeMs, builtAt, 'index.html was not written again');
    } finally {
      await run.stop();
    }
  });

  test('a build whose sources changed is made again, and then counts as current', async () => {
    const outDir = await freshHome();
    await cp(rendererOutDir, outDir, { recursive: true });
    assert.equal(await rendererRebuildReason(outDir), undefined, 'a copy of the current build is current');
    // As if App.tsx had been another file when this build was made.
    const recorded = JSON.parse(await readFile(join(outDir, rendererManifestName), 'utf8')) as { inputs: Record<string, { size: number; mtimeMs: number; sha256: string }> };
    const app = recorded.inputs['renderer/App.tsx'];
    assert.ok(app, 'the build records the renderer’s sources');
    recorded.inputs['renderer/App.tsx'] = { ...app, mtimeMs: app.mtimeMs - 1, sha256: 'the hash of another file' };
    await writeFile(join(outDir, rendererManifestName), JSON.stringify(recorded));
    assert.equal(await rendererRebuildReason(outDir), 'renderer/App.tsx changed since the last build');
    await rm(join(outDir, rendererManifestName));
    assert.equal(await rendererRebuildReason(outDir), 'the build does not say which sources it was made from');
    await buildRenderer(outDir);
    assert.equal(await rendererRebuildReason(outDir), undefined);
  });
});

/** The promise's value, or a failure naming what did not happen in time. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`waited ${waitMs} ms for ${what}`)), waitMs)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Retries a read that fails until it succeeds, within the test's time limit. */
async function eventually<T>(read: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
