// The official servers, started through npx as people configure them, run in their sandbox with no edit
// to their config: server-filesystem reads and writes in the root it is given, server-everything answers.
// npx runs in the repository, where both packages are installed, so no download is needed: the test does
// not depend on the registry (a first run from the registry goes through the same profile, the registry
// among its allowed hosts and npx's cache writable). A folder given to server-filesystem only as its
// argument, the way its own README configures it, is read but not written: the refused write, which the
// server says only in its tool result, is listed with the server, and allowing it lets the next write in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { TestHost } from '../../../../e2e/fixtures/hostHarness.ts';
import { startTestHost } from '../../../../e2e/fixtures/hostHarness.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const linuxOnly = process.platform === 'linux' ? {} : { skip: 'the sandbox this checks is bubblewrap (Linux)' };
const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((part) => part.text ?? '').join('\n');

describe('server-filesystem and server-everything through npx', linuxOnly, () => {
  let host: TestHost;
  let root: string;
  before(async () => {
    // In the home folder, which the sandbox hides but for the roots.
    root = await realpath(await mkdtemp(join(homedir(), '.atrium-sandbox-npx-')));
    await writeFile(join(root, 'plan.md'), '# the plan');
    host = await startTestHost(
      {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', root], cwd: repoRoot },
        everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'], cwd: repoRoot },
      },
      { roots: [root] },
    );
    await host.core.hub.whenSettled();
  });
  after(async () => {
    await host.close();
    await rm(root, { recursive: true, force: true });
  });

  test('both start in their sandbox, and say what they can touch', async () => {
    for (const server of await host.core.api.listServers({})) assert.equal(server.status.kind, 'ready', `${server.id}: ${JSON.stringify(server.status)}`);
    for (const summary of await host.core.api.listSandboxes({})) {
      assert.equal(summary.state, 'sandboxed', JSON.stringify(summary));
      assert.ok(summary.touches.some((line) => line.startsWith('Reads and changes:') && line.includes('.atrium-sandbox-npx-')), JSON.stringify(summary.touches));
      assert.ok(summary.touches.some((line) => line.includes('~/.npm/_npx')), 'npx’s cache is named');
    }
  });

  test('server-filesystem reads and writes in its root', async () => {
    assert.match(textOf(await host.core.api.callTool({ serverId: 'filesystem', tool: 'read_text_file', arguments: { path: join(root, 'plan.md') } })), /# the plan/);
    await host.core.api.callTool({ serverId: 'filesystem', tool: 'write_file', arguments: { path: join(root, 'done.md'), content: 'written sandboxed' } });
    assert.equal(readFileSync(join(root, 'done.md'), 'utf8'), 'written sandboxed');
  });

  test('server-everything answers a call', async () => {
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'everything', tool: 'echo', arguments: { message: 'from the sandbox' } })), 'Echo: from the sandbox');
  });
});

// With no roots, server-filesystem works in the folders its arguments name: those the sandbox lets it read only.
describe('server-filesystem given its folder as an argument, with no roots', linuxOnly, () => {
  let host: TestHost;
  let argumentFolder: string;
  before(async () => {
    argumentFolder = await realpath(await mkdtemp(join(homedir(), '.atrium-sandbox-argument-')));
    host = await startTestHost({ notes: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', argumentFolder], cwd: repoRoot } });
    await host.core.hub.whenSettled();
  });
  after(async () => {
    await host.close();
    await rm(argumentFolder, { recursive: true, force: true });
  });

  test('a write to the folder in its arguments, refused in the tool result, is listed as blocked; allowing it lets the write in', async () => {
    const target = join(argumentFolder, 'todo.md');
    const refused = await host.core.api.callTool({ serverId: 'notes', tool: 'write_file', arguments: { path: target, content: 'first try' } });
    assert.equal(refused.isError, true, textOf(refused));
    assert.match(textOf(refused), /read-only file system/i);
    const [summary] = await host.core.api.listSandboxes({ serverId: 'notes' });
    const blocked = summary?.blocked.find((entry) => entry.kind === 'write');
    assert.deepEqual({ target: blocked?.target, allow: blocked?.allow }, { target, allow: argumentFolder }, JSON.stringify(summary?.blocked));

    await host.core.api.allowSandboxAccess({ serverId: 'notes', kind: 'write', target: argumentFolder });
    await host.core.hub.whenSettled();
    const written = await host.core.api.callTool({ serverId: 'notes', tool: 'write_file', arguments: { path: target, content: 'second try' } });
    assert.notEqual(written.isError, true, textOf(written));
    assert.equal(readFileSync(target, 'utf8'), 'second try');
  });
});
