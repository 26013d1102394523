// Skills from the command line as a person uses them: `atrium skills` lists what servers offer (nothing
// read), `atrium skill` shows one verified, and `atrium chat` uses one, asking on the terminal (or, with
// no terminal, using nothing). runCli in-process with a scripted terminal, a real skill server and a
// scripted model.

import { runWithTerminal } from './testKits/scriptedTerminal.ts';
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { refundsFolder, skillServer } from '../mcp/extensions/skills/testKits/skillScene.ts';

describe('atrium skills, skill, and skills in atrium chat', () => {
  let home: string;
  before(async () => {
    home = await makeTempDir('atrium-skills-cli-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { shop: skillServer(['--skills', await refundsFolder()]) } }));
    await approveServers(home);
  });
  after(() => rm(home, { recursive: true, force: true }));

  const run = (args: string[], replies?: string[]) => runWithTerminal(home, args, replies, 'n');

  test('`atrium skills` lists each skill with its server, files and standing; `atrium skill` shows its SKILL.md verified, and a listed file', async () => {
    const listed = await run(['skills']);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /shop: 1 skill\n {2}refunds {2}skill:\/\/refunds\/SKILL\.md {2}\(2 files, \d+ bytes\)\n {4}Process a customer's refund request per company policy\.\n {4}not used yet: its first use asks/);
    const shown = await run(['skill', 'shop', 'skill://refunds/SKILL.md']);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /refunds of shop \(skill:\/\/refunds\/SKILL\.md\): SKILL\.md matches the size, digest and frontmatter its server listed/);
    assert.match(shown.out, /2\. Read references\/policy\.md and apply it\./);
    const file = await run(['skill', 'shop', 'skill://refunds/SKILL.md', 'references/policy.md']);
    assert.equal(file.out.trim(), 'Refund within 30 days of delivery.');
    const unlisted = await run(['skill', 'shop', 'skill://refunds/SKILL.md', 'references/secret.md']);
    assert.equal(unlisted.code, 1);
    assert.match(unlisted.err, /atrium: references\/secret\.md of the skill “refunds” of shop was not shown: references\/secret\.md is not one of the files its server listed for it/);
  });

  test('`atrium skill` takes a skill by the name its listing shows first, as by its URI; a slip in the name names the one meant', async () => {
    const byName = await run(['skill', 'shop', 'refunds']);
    assert.equal(byName.code, 0, byName.err);
    assert.match(byName.out, /^refunds of shop \(skill:\/\/refunds\/SKILL\.md\): SKILL\.md matches/);
    const file = await run(['skill', 'shop', 'refunds', 'references/policy.md']);
    assert.equal(file.out.trim(), 'Refund within 30 days of delivery.');
    const slip = await run(['skill', 'shop', 'refund']);
    assert.equal(slip.code, 1);
    assert.equal(slip.err.trim(), 'atrium: shop has no skill named "refund": did you mean "refunds"? (atrium skills --server shop lists them)');
  });

  test('a server whose skills could not be listed is said beside the others, and the listing exits 1, as one that could not start', async () => {
    const other = await makeTempDir('atrium-skills-cli-broken-');
    try {
      const gone = join(tmpdir(), `atrium-no-skills-here-${process.pid}`);
      await writeFile(join(other, 'servers.json'), JSON.stringify({ mcpServers: { shop: skillServer(['--skills', await refundsFolder()]), library: skillServer(['--skills', gone]) } }));
      await approveServers(other);
      const listed = await runWithTerminal(other, ['skills'], undefined, 'n');
      assert.equal(listed.code, 1, listed.out);
      assert.match(listed.out, /^shop: 1 skill\n {2}refunds /m);
      assert.match(listed.out, /^library: 0 skills \(not listed now: .*no such file or directory/m);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  test('in `atrium chat` the model uses a skill: asked on the terminal once, with its files; without a terminal, nothing is used', async () => {
    const use = { toolCalls: [{ name: 'atrium_use_skill', input: { server: 'shop', uri: 'skill://refunds/SKILL.md' } }] };
    const llm = await startFakeAnthropic([use, { text: 'Not without your approval.' }, use, { text: 'Following the refunds skill.' }]);
    try {
      const flags = ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url];
      const alone = await run(['chat', 'refund order 42', ...flags]);
      assert.equal(alone.code, 0, alone.err);
      assert.match(alone.err, /atrium: shop's skill needs your approval, but there is no terminal to ask on; it was not used/);
      assert.match(alone.err, /atrium: Not done: the person could not be asked/);

      const asked = await run(['chat', 'refund order 42', ...flags], ['y']);
      assert.equal(asked.code, 0, asked.err);
      assert.match(asked.out, /the model asks to use the skill “refunds” of shop \(skill:\/\/refunds\/SKILL\.md\)\n {2}Process a customer's refund request per company policy\.\n {2}its files: SKILL\.md \(\d+ bytes\), references\/policy\.md \(35 bytes\)/);
      assert.deepEqual(asked.asked, ['  Use it? [y] yes, [t] yes and let those tools run without asking, [n] no: ']);
      assert.match(asked.err, /atrium: using the skill “refunds” of shop: its SKILL\.md matched what the server listed \(2 files in all\)/);
      assert.match(asked.out, /Following the refunds skill\./);
      const after = await run(['skills']);
      assert.match(after.out, / {4}approved\n/);
    } finally {
      await llm.close();
    }
  });
});
