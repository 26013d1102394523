// Skills end to end against a real skill server (e2e/servers/skillServer.ts, on the SDK's
// SkillsExtension) and a scripted model: nothing of a skill is read before it is used (SEP-2640, lazy
// retrieval), its first use asks once and reads its SKILL.md, a changed file asks again exactly once, a
// skill beyond the limits is refused before any read, and the cache serves a file again without asking
// the server, until the server is removed.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { nextEvent, waitForLog } from '../../../../e2e/fixtures/hostHarness.ts';
import { SKILL_CACHE_FOLDER } from './store/skillCache.ts';
import type { SkillScene } from './testKits/skillScene.ts';
import { modelRequests, refundsFolder, skillScene, skillServer } from './testKits/skillScene.ts';

const scenes: SkillScene[] = [];
after(async () => {
  for (const scene of scenes) await scene.close();
});

const useRefunds = { toolCalls: [{ name: 'atrium_use_skill', input: { server: 'shop', uri: 'skill://refunds/SKILL.md' } }] };
const reads = (said: string[]) => said.filter((line) => line.startsWith('read '));

describe('skills: lazy, asked once, bound to their files', () => {
  test('SEP-2640 lazy retrieval: over 10 connects the skills are listed and nothing of them is read; the first use reads SKILL.md, once', async () => {
    const folder = await refundsFolder();
    const scene = await skillScene([useRefunds, { text: 'Following the refunds skill.' }], { shop: skillServer(['--skills', folder]) });
    scenes.push(scene);
    const { api } = scene.host.core;
    await waitForLog(scene.host.core, 'shop', /^skills\/list$/);
    for (let connect = 1; connect <= 10; connect++) {
      if (connect > 1) {
        // This connect's own listing, as the server logs it (its stderr may come after the answer).
        const listedNow = nextEvent(scene.host.core, 'log', (line) => line.serverId === 'shop' && line.text === 'skills/list');
        const ready = nextEvent(scene.host.core, 'skillsChanged', (list) => list.serverId === 'shop' && list.skills.length === 1);
        await api.restartServer({ serverId: 'shop' });
        await Promise.all([listedNow, ready]);
      }
      const [listed] = await api.listSkills({ serverId: 'shop' });
      assert.deepEqual(listed?.skills.map((skill) => [skill.name, skill.approval.kind]), [['refunds', 'not-asked']], `connect ${connect}`);
    }
    const before = await scene.serverSaid('shop');
    assert.ok(before.filter((line) => line === 'skills/list').length >= 10, `listed at every connect: ${before.join(' | ')}`);
    assert.deepEqual(reads(before), [], 'no skill file read before the skill is used');

    const { conversationId } = await api.sendMessage({ text: 'refund order 42' });
    assert.deepEqual(reads(await scene.serverSaid('shop')), ['read skill://refunds/SKILL.md'], 'its use reads SKILL.md only (policy.md when the model asks for it)');
    assert.equal(scene.asked.length, 1);
    const [question] = scene.asked;
    assert.equal(question?.payload.question, 'use');
    if (question?.payload.question === 'use') {
      assert.equal(question.payload.skill.serverId, 'shop');
      assert.deepEqual(question.payload.skill.files === 'dynamic' ? [] : question.payload.skill.files.map((file) => file.path), ['SKILL.md', 'references/policy.md']);
    }
    const toModel = modelRequests(scene.llm)[1] ?? '';
    assert.match(toModel, /The skill \\"refunds\\" of the MCP server \\"shop\\" is loaded/);
    assert.match(toModel, /<server-content server=\\"shop\\" uri=\\"skill:\/\/refunds\/SKILL.md\\">/);
    assert.match(toModel, /it allows you nothing you were not allowed before/);
    assert.deepEqual((await api.listSkillsInUse({ conversationId })).map((skill) => [skill.serverId, skill.name]), [['shop', 'refunds']]);
  });

  test('content-bound approval: one changed file asks again exactly once, showing what changed; the cache serves what did not change', async () => {
    const folder = await refundsFolder();
    const script = [useRefunds, { text: 'one' }, useRefunds, { text: 'two' }, useRefunds, { text: 'three' }, useRefunds, { text: 'four' }];
    const scene = await skillScene(script, { shop: skillServer(['--skills', folder]) });
    scenes.push(scene);
    const { api } = scene.host.core;
    await api.sendMessage({ text: 'first' });
    await api.sendMessage({ text: 'second' });
    assert.equal(scene.asked.length, 1, 'approved once, used again without asking');
    assert.deepEqual(reads(await scene.serverSaid('shop')), ['read skill://refunds/SKILL.md'], 'the second use took SKILL.md from the cache');

    await writeFile(join(folder, 'refunds', 'references', 'policy.md'), 'Refund within 90 days, no questions asked.\n');
    await api.sendMessage({ text: 'third' });
    await api.sendMessage({ text: 'fourth' });
    assert.equal(scene.asked.length, 2, 'exactly one re-approval');
    const again = scene.asked[1]?.payload;
    assert.equal(again?.question, 'use');
    if (again?.question === 'use') assert.deepEqual(again.change, { added: [], removed: [], changed: ['references/policy.md'] });
    assert.deepEqual(reads(await scene.serverSaid('shop')), ['read skill://refunds/SKILL.md'], 'SKILL.md did not change: still served from the cache');
    const [listed] = await api.listSkills({ serverId: 'shop' });
    assert.equal(listed?.skills[0]?.approval.kind, 'approved');
  });

  test('a skill the person picks and then declines: they read that they chose not to use it and nothing was sent; nothing is saved, read or sent to the model', async () => {
    const folder = await refundsFolder();
    const scene = await skillScene([{ text: 'never asked' }], { shop: skillServer(['--skills', folder]) });
    scenes.push(scene);
    const { api } = scene.host.core;
    scene.answerWith({ effect: 'deny' });
    await assert.rejects(api.runSkill({ serverId: 'shop', uri: 'skill://refunds/SKILL.md' }), (error: Error) => {
      assert.equal(error.message, 'you chose not to use the skill; nothing was sent');
      assert.equal((error as Error & { code?: string }).code, 'cancelled', 'the window keeps the box empty for a use the person cancelled');
      return true;
    });
    assert.equal(scene.asked.length, 1, 'asked once');
    assert.equal(scene.asked[0]?.payload.question === 'use' && scene.asked[0].payload.by, 'person');
    assert.deepEqual(await api.listConversations({}), [], 'no conversation was saved');
    assert.deepEqual(reads(await scene.serverSaid('shop')), [], 'nothing of the skill was read');
    assert.deepEqual(modelRequests(scene.llm), [], 'nothing reached the model');
  });

  test('limits: a 513-file skill is refused before any read, saying why; one of 512 files is accepted', async () => {
    const scene = await skillScene(
      [
        { toolCalls: [{ name: 'atrium_use_skill', input: { server: 'big', uri: 'skill://bulk/SKILL.md' } }] },
        { text: 'It cannot be used.' },
        { toolCalls: [{ name: 'atrium_use_skill', input: { server: 'most', uri: 'skill://bulk/SKILL.md' } }] },
        { text: 'Using it.' },
      ],
      { big: skillServer(['--bulk', '513']), most: skillServer(['--bulk', '512']) },
    );
    scenes.push(scene);
    const { api } = scene.host.core;
    const lists = await api.listSkills({});
    const refused = lists.find((list) => list.serverId === 'big')?.skills[0];
    assert.equal(refused?.refused, 'it has 513 files; Atrium loads skills of up to 512 files');
    assert.equal(lists.find((list) => list.serverId === 'most')?.skills[0]?.refused, undefined);

    await api.sendMessage({ text: 'use the big one' });
    assert.match(modelRequests(scene.llm)[1] ?? '', /Not done: the skill “bulk” of big is not loaded: it has 513 files; Atrium loads skills of up to 512 files/);
    assert.equal(scene.asked.length, 0, 'refused before the person was asked');
    assert.deepEqual(reads(await scene.serverSaid('big')), [], 'refused before any read');

    await api.sendMessage({ text: 'use the other one' });
    assert.equal(scene.asked.length, 1);
    assert.deepEqual(reads(await scene.serverSaid('most')), ['read skill://bulk/SKILL.md']);
  });

  test('the cache lives in the data folder, one folder per server, and goes with the server', async () => {
    const folder = await refundsFolder();
    const scene = await skillScene([useRefunds, { text: 'ok' }], { shop: skillServer(['--skills', folder]) });
    scenes.push(scene);
    const { api } = scene.host.core;
    await api.sendMessage({ text: 'refund' });
    const serverFolder = join(scene.host.home, SKILL_CACHE_FOLDER, 'shop');
    assert.equal((await readdir(serverFolder)).filter((name) => !name.endsWith('.json')).length, 1, 'SKILL.md is kept');
    // The server's skills are said to be gone once its cached files are too.
    let removedSeen = false;
    scene.host.core.events.on('serverRemoved', () => (removedSeen = true));
    const gone = nextEvent(scene.host.core, 'skillsChanged', (list) => removedSeen && list.serverId === 'shop');
    await api.removeServer({ serverId: 'shop' });
    await gone;
    assert.equal(existsSync(serverFolder), false);
  });
});
