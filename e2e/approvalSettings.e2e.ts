// Approvals chosen in Settings, as a person uses them, against a real host and the real echo server marked
// trusted: by default its read-only `add` runs without asking; once "Ask for every tool call" is chosen the
// same tool asks in a dialog, with no restart; once "Refuse every request" is chosen a server's sampling
// request is refused with no sampling dialog; and the choices are kept across a reload.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chatHostFor, lastModelRequest, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] },
    { text: 'One and two make three.' },
    { toolCalls: [{ name: 'echo__add', input: { a: 2, b: 3 } }] },
    { text: 'Two and three make five.' },
    { toolCalls: [{ name: 'echo__sample', input: { prompt: 'Say hello to Atrium' } }] },
    { text: 'The server could not use your model.' },
  ],
  { echo: { ...fixtureCommand('echoServer'), trusted: true } },
);

test('approvals: "ask for every tool call" asks for a trusted read-only tool, "refuse every request" refuses sampling, both kept', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  const approvals = page.getByRole('region', { name: 'Approvals' });

  await test.step('by default, a trusted server’s read-only tool runs without asking', async () => {
    await sendMessage(page, 'add 1 and 2');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('One and two make three.');
    await expect(page.getByRole('article', { name: 'Tool call echo/add' }).getByRole('status')).toContainText('Done');
    await expect(page.getByRole('dialog', { name: 'Run add?' })).toHaveCount(0);
  });

  await test.step('with “Ask for every tool call”, the same tool asks in a dialog, at once', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(approvals.getByRole('radio', { name: 'Ask unless a trusted server marks the tool read-only (recommended)' }), 'the default is selected').toBeChecked();
    await expect(approvals.getByRole('radio', { name: 'Ask each time' })).toBeChecked();
    await approvals.getByRole('radio', { name: 'Ask for every tool call' }).check();
    await expect(page.getByRole('status').filter({ hasText: 'Every tool call asks you first' })).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/settings-approvals.png' });

    await sendMessage(page, 'add 2 and 3');
    const dialog = page.getByRole('dialog', { name: 'Run add?' });
    await expect(dialog).toContainText('you asked to approve every tool call');
    await expect(dialog).toContainText('You trust this server');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Two and three make five.');
    await expect(page.getByRole('article', { name: 'Tool call echo/add' }).last().getByLabel('Result of add').locator('pre').first()).toHaveText('5');
  });

  await test.step('with “Refuse every request”, a server’s sampling request is refused and no sampling dialog opens', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await approvals.getByRole('radio', { name: 'Refuse every request' }).check();
    await expect(page.getByRole('status').filter({ hasText: 'Sampling requests are refused' })).toBeVisible();

    await sendMessage(page, 'use sampling');
    await page.getByRole('dialog', { name: 'Run sample?' }).getByRole('button', { name: 'Allow once' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The server could not use your model.');
    await expect(page.getByRole('article', { name: 'Tool call echo/sample' }).getByLabel('Result of sample')).toContainText('declined: sampling is turned off');
    await expect(page.getByRole('dialog', { name: 'Use your model for a server?' })).toHaveCount(0);
    expect(lastModelRequest(env().llm), 'the refusal went back to the model as the tool’s result').toContain('sampling is turned off');
    expect(env().llm.requests.filter((r) => r.method === 'POST'), 'the model was never asked on the server’s behalf').toHaveLength(6);
  });

  await test.step('the choices are kept: still selected after a reload, and in providers.json', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(approvals.getByRole('radio', { name: 'Ask for every tool call' })).toBeChecked();
    await expect(approvals.getByRole('radio', { name: 'Refuse every request' })).toBeChecked();
    const file = JSON.parse(await readFile(join(env().host.home, 'providers.json'), 'utf8')) as { approvals?: unknown };
    expect(file.approvals).toEqual({ tools: 'ask-every', sampling: 'deny' });
  });
});
