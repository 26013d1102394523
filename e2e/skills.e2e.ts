// Skills over MCP (SEP-2640) in the window, against real skill servers (e2e/servers/skillServer.ts) and a
// real host: Servers › a server › Skills lists what it offers (nothing of it read), two servers' same
// skill shown apart; the model asks to use one and the person sees its name, server, description and
// files; the skill in use is marked in the conversation; a file changes and the next use asks again,
// showing what changed; "/" in the composer offers prompts and skills, each with its server. Each of
// these passes axe (WCAG 2.1 A and AA) in both themes.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { violationsInBothThemes } from './fixtures/axe.ts';
import { chatHostFor, lastModelRequest, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const folder = mkdtempSync(join(tmpdir(), 'atrium-e2e-skills-'));
mkdirSync(join(folder, 'refunds', 'references'), { recursive: true });
writeFileSync(
  join(folder, 'refunds', 'SKILL.md'),
  '---\nname: refunds\ndescription: Process a customer’s refund request per company policy.\nallowed-tools: note_order\n---\n# Refunds\n1. Look the order up.\n2. Read references/policy.md and apply it.\n',
);
writeFileSync(join(folder, 'refunds', 'references', 'policy.md'), 'Refund within 30 days of delivery.\n');

const useRefunds = { toolCalls: [{ name: 'atrium_use_skill', input: { server: 'shop', uri: 'skill://refunds/SKILL.md' } }] };
const env = chatHostFor(
  [
    useRefunds,
    { toolCalls: [{ name: 'atrium_read_skill_file', input: { server: 'shop', skill: 'skill://refunds/SKILL.md', file: 'references/policy.md' } }] },
    { toolCalls: [{ name: 'atrium_read_skill_file', input: { server: 'shop', skill: 'skill://refunds/SKILL.md', file: 'references/secret.md' } }] },
    { text: 'Order 42 is within 30 days: I can refund it.' },
    useRefunds,
    { text: 'Under the new policy, order 42 can be refunded.' },
    { text: 'Which order should I refund?' },
  ],
  { shop: fixtureCommand('skillServer', ['--skills', folder]), archive: fixtureCommand('skillServer', ['--skills', folder]) },
);

test('SEP-2640 in the window: skills listed per server, used with consent bound to their files, asked again when one changes', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page, env().host, ['shop', 'archive']);
  const accessibility: string[] = [];

  await test.step("Servers › shop › Skills: its skills from the listing alone; the other server's same skill is told apart", async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'shop', exact: true }).getByRole('button', { name: 'shop', exact: true }).click();
    await page.getByRole('tab', { name: 'Skills' }).click();
    const skill = page.getByRole('article', { name: 'Skill refunds' });
    await expect(skill).toContainText('Process a customer’s refund request per company policy.');
    await expect(skill).toContainText('2 files');
    await expect(skill).toContainText('another skill is also named so: this one is shop’s, at skill://refunds/SKILL.md');
    await expect(skill).toContainText('Not used yet: the first use asks you');
    await expect(page.getByRole('tabpanel')).toContainText('Nothing of a skill is read until it is used');
    await page.screenshot({ path: 'e2e/artifacts/skills-list.png' });
    accessibility.push(...(await violationsInBothThemes(page, 'Servers › Skills')));
  });

  await test.step('the model asks to use it: name, server, description and every file, the safe answer focused', async () => {
    await sendMessage(page, 'Refund order 42');
    const dialog = page.getByRole('dialog', { name: 'Use the skill refunds?' });
    await expect(dialog).toContainText('The model asks to use a skill of shop');
    await expect(dialog).toContainText('Process a customer’s refund request per company policy.');
    await expect(dialog.getByRole('list', { name: 'Its files' }).getByRole('listitem')).toHaveCount(2);
    await expect(dialog.getByRole('list', { name: 'Its files' })).toContainText('references/policy.md');
    await expect(dialog).toContainText('note_order');
    await expect(dialog.getByRole('button', { name: 'Don’t use it' })).toBeFocused();
    await page.screenshot({ path: 'e2e/artifacts/skills-approval.png' });
    accessibility.push(...(await violationsInBothThemes(page, 'skill question')));
    await dialog.getByRole('button', { name: 'Use the skill' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Order 42 is within 30 days: I can refund it.');
  });

  await test.step('the skill in use is marked in the conversation, with its server; its text reached the model as that server’s', async () => {
    await expect(page.getByRole('list', { name: 'Skills in use' })).toContainText('Skill refunds · from shop');
    await expect(page.getByText('Asked to use the skill “refunds” of shop')).toBeVisible();
    await expect(page.getByText('Asked to read references/policy.md for the skill “refunds” of shop')).toBeVisible();
    // What Atrium refused the model is said where it asked, not only in the model's reply.
    const refused = page.getByRole('paragraph').filter({ hasText: 'Asked to read references/secret.md for the skill “refunds” of shop' });
    await expect(refused).toContainText(/Not done: .*references\/secret\.md is not one of the files its server listed/);
    await expect(page.getByRole('paragraph').filter({ hasText: 'Asked to read references/policy.md' }), 'a read that was done says nothing more').not.toContainText('Not done');
    expect(lastModelRequest(env().llm)).toContain('A file of the skill \\"refunds\\" of the MCP server \\"shop\\"');
    await page.screenshot({ path: 'e2e/artifacts/skills-in-use.png' });
    accessibility.push(...(await violationsInBothThemes(page, 'chat with a skill in use')));
  });

  await test.step('one file changes: the next use asks again, showing what changed', async () => {
    writeFileSync(join(folder, 'refunds', 'references', 'policy.md'), 'Refund within 90 days, no questions asked.\n');
    await sendMessage(page, 'Refund order 42 again');
    const dialog = page.getByRole('dialog', { name: 'Use the skill refunds?' });
    await expect(dialog.getByRole('alert')).toContainText('This skill changed since you approved it');
    await expect(dialog.getByRole('list', { name: 'What changed' })).toHaveText('~ references/policy.md (changed)');
    await page.screenshot({ path: 'e2e/artifacts/skills-changed.png' });
    accessibility.push(...(await violationsInBothThemes(page, 'changed skill question')));
    await dialog.getByRole('button', { name: 'Use the skill' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Under the new policy, order 42 can be refunded.');
  });

  await test.step('"/" offers prompts and skills, each with its server; picking one sends it as the person’s message, marked as from it', async () => {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/ref');
    const list = page.getByRole('listbox', { name: 'Prompts and skills' });
    await expect(list.getByRole('option')).toHaveCount(2);
    await expect(list.getByRole('option', { name: /refunds skill · archive/ })).toBeVisible();
    const fromShop = list.getByRole('option', { name: /refunds skill · shop/ });
    await expect(fromShop).toContainText('Process a customer’s refund request per company policy.');
    await page.screenshot({ path: 'e2e/artifacts/skills-composer.png' });
    accessibility.push(...(await violationsInBothThemes(page, 'prompts and skills list')));
    await fromShop.click();
    const mine = page.getByRole('listitem', { name: 'You, with skill refunds' });
    await expect(mine).toContainText('with skill refunds · shop');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Which order should I refund?');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('the person can read a skill, checked as a use would be, and forget their approval', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'shop', exact: true }).getByRole('button', { name: 'shop', exact: true }).click();
    await page.getByRole('tab', { name: 'Skills' }).click();
    const skill = page.getByRole('article', { name: 'Skill refunds' });
    await expect(skill).toContainText(/Approved/);
    await page.getByRole('button', { name: 'Show refunds' }).click();
    await expect(skill.getByLabel('SKILL.md of refunds')).toContainText('2. Read references/policy.md and apply it.');
    await expect(skill).toContainText('SKILL.md, checked against the size, digest and frontmatter shop listed');
    await page.screenshot({ path: 'e2e/artifacts/skills-shown.png' });
    await page.getByRole('button', { name: 'Forget my approval of refunds' }).click();
    await expect(skill).toContainText('Not used yet: the first use asks you');
  });

  await test.step('picked from "/" again, now unapproved: it asks, and when the person says no they read so and nothing is sent', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
    const toModel = env().llm.requests.length;
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/ref');
    await page.getByRole('listbox', { name: 'Prompts and skills' }).getByRole('option', { name: /refunds skill · shop/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Use the skill refunds?' });
    await expect(dialog).toContainText('You picked a skill of shop');
    await dialog.getByRole('button', { name: 'Don’t use it' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'you chose not to use the skill' })).toHaveText('you chose not to use the skill; nothing was sent');
    await expect(box).toHaveValue('');
    await expect(page.getByRole('listbox', { name: 'Prompts and skills' })).toHaveCount(0);
    expect(env().llm.requests.length, 'nothing reached the model').toBe(toModel);
    await page.screenshot({ path: 'e2e/artifacts/skills-declined.png' });
  });
  expect(accessibility).toEqual([]);
});
