// Roots per workspace, as a person uses them: two workspaces with their own folders, switching between
// them reaches a real server at once (roots/list_changed), the choice survives a restart, and a folder
// that disappeared is reported rather than sent.

import assert from 'node:assert/strict';
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { HostCore } from '../app/hostCore.ts';
import { startHostCore } from '../app/hostCore.ts';
import { filesystemServerPath, makeTempDir, nextEvent } from '../../e2e/fixtures/hostHarness.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

const textOf = (result: Record<string, unknown>) => ((result['content'] as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe('workspaces', () => {
  let home: string;
  let projectA: string;
  let projectB: string;
  let core: HostCore;
  const start = async () => {
    core = await startHostCore({ home, keepAliveMs: 0 });
    await core.hub.whenSettled();
  };
  const allowed = async () => textOf(await core.api.callTool({ serverId: 'fs', tool: 'list_allowed_directories', arguments: {} }));
  /** Runs `change` and waits until the filesystem server has fetched the new roots. */
  const rootsReachServer = async (change: () => Promise<unknown>) => {
    const updated = nextEvent(core, 'log', (line) => line.serverId === 'fs' && /Updated allowed directories/i.test(line.text));
    await change();
    await updated;
  };

  before(async () => {
    home = await makeTempDir('atrium-ws-');
    projectA = await realpath(await makeTempDir('atrium-project-a-'));
    projectB = await realpath(await makeTempDir('atrium-project-b-'));
    await mkdir(join(projectB, 'src'));
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [filesystemServerPath()] } } }));
    await approveServers(home);
    await start();
  });
  after(async () => {
    await core.shutdown();
    for (const dir of [home, projectA, projectB]) await rm(dir, { recursive: true, force: true });
  });

  test('a Default workspace exists from the start; each workspace keeps its own roots; switching reaches the server at once', async () => {
    const [initial] = await core.api.listWorkspaces({});
    assert.deepEqual([initial?.name, initial?.active, initial?.roots], ['Default', true, []]);
    await rootsReachServer(() => core.api.setRoots({ roots: [{ uri: projectA }] }));
    assert.ok((await allowed()).includes(projectA));

    const b = await core.api.createWorkspace({ name: 'Project B', roots: [{ uri: pathToFileURL(projectB).href, name: 'B' }] });
    assert.equal(b.active, false);
    assert.ok(!(await allowed()).includes(projectB), 'a workspace that is not active exposes nothing');
    const changed = nextEvent(core, 'workspacesChanged');
    await rootsReachServer(() => core.api.activateWorkspace({ workspaceId: b.id }));
    assert.deepEqual((await changed).map((w) => [w.name, w.active]), [['Default', false], ['Project B', true]]);
    const now = await allowed();
    assert.ok(now.includes(projectB) && !now.includes(projectA), now);
    assert.deepEqual(await core.api.listRoots({}), [{ uri: pathToFileURL(projectB).href, name: 'B' }]);
  });

  test('bad roots are refused and change nothing; the active workspace cannot be deleted', async () => {
    const active = (await core.api.listWorkspaces({})).find((w) => w.active);
    assert.ok(active);
    await assert.rejects(core.api.setWorkspaceRoots({ workspaceId: active.id, roots: [{ uri: join(projectB, 'no-such-folder') }] }), /there is no folder/);
    await assert.rejects(core.api.setWorkspaceRoots({ workspaceId: active.id, roots: [{ uri: 'file://%zz' }] }), /not a valid file URI|there is no folder/);
    await assert.rejects(core.api.setWorkspaceRoots({ workspaceId: active.id, roots: [{ uri: 'projects/app' }] }), /the folder "projects\/app" must be a whole path: type it in full/);
    await assert.rejects(core.api.createWorkspace({ name: 'Default' }), /already a workspace called "Default"/);
    // Two workspaces whose names differ only in their capitals would be one name to a person.
    await assert.rejects(core.api.createWorkspace({ name: 'default' }), /^Error: there is already a workspace called "Default"$/);
    // A folder typed into the name's field: said so, with a name to give it instead.
    await assert.rejects(core.api.createWorkspace({ name: '/home/ada/projects/app/' }), /^Error: "\/home\/ada\/projects\/app\/" is a folder, not a name: give the workspace a name \(such as "app"\), then add the folder to it$/);
    for (const path of ['~', '~/notes', './here', 'C:\\Users\\ada']) await assert.rejects(core.api.createWorkspace({ name: path }), /is a folder, not a name/, path);
    assert.ok(await core.api.createWorkspace({ name: 'client/acme' }), 'a name with a slash inside is still a name');
    await assert.rejects(core.api.deleteWorkspace({ workspaceId: active.id }), /is the active workspace/);
    assert.deepEqual((await core.api.listRoots({})).map((r) => r.uri), [pathToFileURL(projectB).href]);
  });

  test('the active workspace survives a restart; a folder that disappeared is reported, not sent', async () => {
    await core.shutdown();
    await rm(projectB, { recursive: true, force: true });
    await start();
    const active = (await core.api.listWorkspaces({})).find((w) => w.active);
    assert.equal(active?.name, 'Project B');
    assert.deepEqual(active?.missingRoots, [pathToFileURL(projectB).href]);
    assert.deepEqual(await core.api.listRoots({}), []);
    const def = (await core.api.listWorkspaces({})).find((w) => w.name === 'Default');
    assert.ok(def);
    await rootsReachServer(() => core.api.activateWorkspace({ workspaceId: def.id }));
    assert.ok((await allowed()).includes(projectA));
  });

  test('a folder deleted while Atrium runs is reported the next time the workspaces are looked at, and servers no longer get it', async () => {
    await rm(projectA, { recursive: true, force: true });
    const changed = nextEvent(core, 'workspacesChanged');
    const listed = await core.api.listWorkspaces({});
    assert.deepEqual(listed.find((w) => w.active)?.missingRoots, [pathToFileURL(projectA).href]);
    assert.deepEqual((await changed).find((w) => w.active)?.missingRoots, [pathToFileURL(projectA).href], 'every window is told');
    assert.deepEqual(await core.api.listRoots({}), [], 'what servers are given');
  });
});
