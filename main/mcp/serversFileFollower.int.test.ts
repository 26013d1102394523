// servers.json is shared with the person: a host that runs (real stdio servers, the real file watched)
// takes up what the person's editor changes, asks before running what changed, keeps the servers it had
// while the file is broken, and never writes over an edit — not even with a change made in the window
// before it noticed the edit.

import assert from 'node:assert/strict';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nextEvent, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

type ServersDoc = { note?: string; mcpServers: Record<string, Record<string, unknown>> };

const echo = fixtureCommand('echoServer');
const family = fixtureCommand('familyServer');

async function readServers(host: TestHost): Promise<ServersDoc> {
  return JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as ServersDoc;
}

/** Saves the file as an editor does: in place, or (`replace`) a new file renamed over the old one. */
async function editByHand(host: TestHost, change: (doc: ServersDoc) => void, how: 'in place' | 'replace' = 'in place'): Promise<void> {
  const doc = await readServers(host);
  change(doc);
  const path = join(host.home, 'servers.json');
  const text = `${JSON.stringify(doc, null, 4)}\n`;
  if (how === 'in place') return writeFile(path, text);
  await writeFile(`${path}.swp`, text);
  await rename(`${path}.swp`, path);
}

const status = (host: TestHost, id: string) => host.core.hub.get(id).snapshot.status;

describe('servers.json edited by hand while the host runs', () => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ echo });
    await host.core.whenSettled();
    assert.equal(status(host, 'echo').kind, 'ready', 'the setup that was there runs');
  });
  after(async () => {
    await host.close();
  });

  test('a server added by hand appears and waits for approval; a change made in the window afterwards keeps it', async () => {
    const added = nextEvent(host.core, 'serverChanged', (s) => s.id === 'family' && s.status.kind === 'needs-approval');
    await editByHand(host, (doc) => {
      doc.note = 'kept by hand';
      doc.mcpServers.family = family;
    });
    const snapshot = await added;
    assert.deepEqual(snapshot.status, { kind: 'needs-approval', reason: 'new' }, 'nothing the person did not approve runs');

    await host.core.api.setServerEnabled({ serverId: 'echo', enabled: false });
    const saved = await readServers(host);
    assert.equal(saved.note, 'kept by hand');
    assert.deepEqual(Object.keys(saved.mcpServers), ['echo', 'family'], 'the hand-added server survives the window’s change');
    assert.equal(saved.mcpServers.echo?.disabled, true);
    await host.core.api.setServerEnabled({ serverId: 'echo', enabled: true });
    await host.core.whenSettled();
  });

  test('an edit the host has not noticed yet is not lost to a change made in the window at once', async () => {
    // Written and, in the same breath, a change in the window: the change is made on top of the edit.
    await editByHand(host, (doc) => {
      doc.mcpServers.quick = { ...echo, disabled: true };
    });
    await host.core.api.setServerEnabled({ serverId: 'family', enabled: false });
    const saved = await readServers(host);
    assert.deepEqual(Object.keys(saved.mcpServers), ['echo', 'family', 'quick']);
    assert.equal(saved.mcpServers.family?.disabled, true);
    assert.ok(host.core.registry.get('quick'), 'the edit is taken up');
    await host.core.api.removeServer({ serverId: 'quick' });
  });

  test('a launch changed by hand (an editor that replaces the file) stops the server until the person approves the new one', async () => {
    const waiting = nextEvent(host.core, 'serverChanged', (s) => s.id === 'echo' && s.status.kind === 'needs-approval');
    await editByHand(host, (doc) => {
      doc.mcpServers.echo = { ...echo, args: [...echo.args, '--both-eras'] };
    }, 'replace');
    assert.deepEqual((await waiting).status, { kind: 'needs-approval', reason: 'changed' });
    const review = await host.core.api.reviewServerLaunch({ serverId: 'echo' });
    assert.ok(review.approved, 'the window shows the approved definition beside the new one');
    await host.core.api.approveServerLaunch({ serverId: 'echo', hash: review.hash });
    await host.core.whenSettled();
    assert.equal(status(host, 'echo').kind, 'ready');
  });

  test('tools turned off by hand are listed again without a restart', async () => {
    const before = host.core.hub.get('echo');
    const listed = nextEvent(host.core, 'listChanged', (e) => e.serverId === 'echo' && e.list === 'tools');
    await editByHand(host, (doc) => {
      (doc.mcpServers.echo as Record<string, unknown>).disabledTools = 'all';
    });
    await listed;
    assert.equal(host.core.hub.get('echo'), before, 'the same connection keeps running');
    assert.ok((await host.core.api.listTools({ serverId: 'echo' })).every((tool) => !tool.enabled), 'the model is offered none of its tools');
  });

  test('a broken edit keeps the servers as they were, says where the mistake is, and is never written over; fixed, it is taken up', async () => {
    const path = join(host.home, 'servers.json');
    const good = await readServers(host);
    // A comma left after the last entry, as people leave when they delete one.
    const { mcpServers, ...others } = good;
    const broken = `${JSON.stringify({ ...others, mcpServers }, null, 2)}\n`.replace(/\n {4}}\n {2}}\n}\n$/, '\n    },\n  }\n}\n');
    const line = broken.split('\n').lastIndexOf('    },') + 1;
    assert.ok(broken.endsWith('    },\n  }\n}\n'));
    const listed = nextEvent(host.core, 'dataFileProblems', (list) => list.some((p) => p.inPlace === true));
    await writeFile(path, broken);
    const [problem] = (await listed).filter((p) => p.inPlace);
    assert.deepEqual(problem, {
      file: 'servers.json',
      problem: `line ${line}, column 6: a comma with nothing after it (remove it)`,
      keptAt: null,
      inPlace: true,
      withoutIt: 'Atrium keeps the servers it had, and writes nothing to it until it is fixed',
      recovery: [`Fix it in ${path}: Atrium reads it again as soon as it is saved.`, 'Put back the last version Atrium read: copy servers.json.bak over servers.json.'],
    });
    assert.deepEqual(
      host.core.registry.all().map((s) => s.id),
      ['echo', 'family'],
      'the servers are as they were',
    );
    assert.equal(status(host, 'echo').kind, 'ready', 'and keep running');

    await assert.rejects(host.core.api.setServerEnabled({ serverId: 'family', enabled: true }), {
      code: 'failed',
      message: `servers.json cannot be read as it is now, so nothing was changed. Line ${line}, column 6: a comma with nothing after it (remove it). Fix it, then try again.`,
    });
    assert.equal(await readFile(path, 'utf8'), broken, 'the person’s text is as they left it');

    const fixed = nextEvent(host.core, 'dataFileProblems', (list) => !list.some((p) => p.inPlace === true));
    const removed = nextEvent(host.core, 'serverRemoved', (e) => e.serverId === 'family');
    await writeFile(path, `${JSON.stringify({ mcpServers: { echo: good.mcpServers.echo } }, null, 2)}\n`);
    await fixed;
    await removed;
    assert.deepEqual(await host.core.api.listDataFileProblems({}), []);
    assert.deepEqual(
      host.core.registry.all().map((s) => s.id),
      ['echo'],
    );
  });

  test('an editor that deletes the file and then writes it again does not stop the servers; a file deleted for good does', async () => {
    const path = join(host.home, 'servers.json');
    const running = host.core.hub.get('echo');
    const doc = await readServers(host);
    const rewritten = nextEvent(host.core, 'configProblems');
    await rm(path);
    // Read while it is gone (as the watch may, between an editor's delete and its write): nothing stops.
    assert.equal(await host.core.registry.refresh(), 'missing');
    assert.deepEqual(
      host.core.registry.all().map((s) => s.id),
      ['echo'],
    );
    await writeFile(path, `${JSON.stringify({ ...doc, note: 'saved again' }, null, 2)}\n`);
    await rewritten;
    assert.equal(host.core.hub.get('echo'), running, 'the same connection keeps running');

    const stopped = nextEvent(host.core, 'serverRemoved', (e) => e.serverId === 'echo');
    await rm(path);
    await stopped;
    assert.deepEqual(host.core.registry.all(), []);
  });
});
