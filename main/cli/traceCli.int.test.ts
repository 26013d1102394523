// `atrium trace` as a person runs it, a real CLI process over real stdio servers: it prints a server's
// messages one line each (or as JSON Lines with their contents), follows a live server until Ctrl+C — which
// ends it cleanly, the server with it — and shows how a server that fails to start failed.

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { runAtriumCli, startAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

const homes: string[] = [];
after(async () => {
  const { rm } = await import('node:fs/promises');
  for (const home of homes) await rm(home, { recursive: true, force: true });
});

async function homeWith(servers: Record<string, unknown>): Promise<string> {
  const home = await makeTempDir('atrium-trace-cli-');
  homes.push(home);
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));
  await approveServers(home);
  return home;
}


function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const tick = /^\d\d:\d\d:\d\d\.\d{3} {2}<- {2}notification {2}notifications\/message/;

test('atrium trace --follow prints a live server’s messages as they pass, until Ctrl+C ends it and the server', async () => {
  const home = await makeTempDir('atrium-trace-pid-');
  homes.push(home);
  const pidFile = join(home, 'ticking.pid');
  // It writes its process id for the test to watch, so it runs outside the sandbox (whose own processes those are).
  const serversHome = await homeWith({ ticks: { ...fixtureCommand('tickingServer', ['--every-ms', '100', '--pid-file', pidFile]), sandbox: false } });
  const running = startAtriumCli(serversHome, ['trace', 'ticks', '--follow']);

  // The handshake first, one line each: when, which way, what, its id, size and how long the answer took
  // (a request printed before its answer came has none).
  const [initialize] = await running.linesMatching(/ {2}-> {2}request {7}initialize {2}/);
  assert.match(initialize ?? '', /^\d\d:\d\d:\d\d\.\d{3} {2}-> {2}request {7}initialize\s+#0\s+\d+ B(\s+[\d.]+ m?s)?$/);
  const [answer] = await running.linesMatching(/ {2}<- {2}result {8}initialize {2}/);
  assert.match(answer ?? '', /^\d\d:\d\d:\d\d\.\d{3} {2}<- {2}result {8}initialize\s+#0\s+\d+ B\s+[\d.]+ m?s$/);
  // Then what the server does on its own, as it does it: more lines keep coming.
  const firstTicks = await running.linesMatching(tick, 2);
  const seen = running.lines.length;
  await running.linesMatching(tick, firstTicks.length + 3);
  assert.ok(running.lines.length > seen, 'lines kept coming while it followed');
  const pid = Number(await readFile(pidFile, 'utf8'));
  assert.ok(isRunning(pid));

  running.interrupt();
  const outcome = await running.exited;
  assert.equal(outcome.code, 0, `Ctrl+C ends following, not as a failure: ${outcome.stderr}`);
  assert.doesNotMatch(outcome.stderr, /interrupted|Error/);
  assert.equal(isRunning(pid), false, 'the server was stopped with it');
  // Lines are whole: the last one printed is a message, not half of one.
  assert.match(running.lines.at(-1) ?? '', /^\d\d:\d\d:\d\d\.\d{3} {2}(->|<-) {2}/);
});

test('atrium trace without --follow prints what the trace holds and ends; --json prints each message with its contents', async () => {
  const home = await homeWith({ echo: fixtureCommand('echoServer') });
  const plain = await runAtriumCli(home, ['trace', 'echo']);
  assert.equal(plain.code, 0, plain.stderr);
  const lines = plain.stdout.trimEnd().split('\n');
  assert.ok(lines.some((line) => / {2}-> {2}request {7}initialize {2}/.test(line)));
  assert.ok(lines.some((line) => / {2}<- {2}result {8}tools\/list\s+#\d+\s+[\d.]+ k?B/.test(line)));

  const json = await runAtriumCli(home, ['trace', 'echo', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const messages = json.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { direction: string; method?: string; kind: string; json: { result?: { tools?: { name: string }[] } } });
  const tools = messages.find((message) => message.method === 'tools/list' && message.kind === 'result');
  assert.equal(tools?.direction, 'in');
  assert.ok(tools?.json.result?.tools?.some((tool) => tool.name === 'echo'));
});

test('atrium trace of a server that fails to start shows what was sent, and says why it failed', async () => {
  const home = await homeWith({ broken: fixtureCommand('crashServer', ['--crash-on-start']) });
  const outcome = await runAtriumCli(home, ['trace', 'broken']);
  assert.equal(outcome.code, 1);
  assert.match(outcome.stdout, / {2}-> {2}request {7}(server\/discover|initialize) {2}/);
  assert.match(outcome.stderr, /^atrium: broken: .*exited with code 1/m);
});

test('--follow belongs to trace', async () => {
  const home = await homeWith({});
  const outcome = await runAtriumCli(home, ['tools', '--follow']);
  assert.equal(outcome.code, 2);
  assert.match(outcome.stderr, /--follow goes with the trace command/);
});
