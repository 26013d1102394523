// What the person allows holds, and they are told what it will reach before they choose: a pasted
// (untrusted) server-everything whose read-only echo, allowed "always", keeps running after its own
// result; a step of two calls answered together; a trusted server's destructive tool allowed "always"
// that asks again, naming the source, once an untrusted resource is attached; and the rules in
// Servers › Permissions, where a server's read-only tools can run without asking.
import { createRequire } from 'node:module';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const require = createRequire(import.meta.url);
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'everything__echo', input: { message: 'hello' } }] },
    { toolCalls: [{ name: 'everything__echo', input: { message: 'again' } }] },
    { text: 'Echoed twice.' },
    {
      toolCalls: [
        { name: 'everything__get-sum', input: { a: 1, b: 2 } },
        { name: 'notes__delete_file', input: { path: '/tmp/atrium-old.log' } },
      ],
    },
    { text: 'Summed and tidied.' },
    { toolCalls: [{ name: 'notes__delete_file', input: { path: '/tmp/atrium-a.log' } }] },
    { text: 'Deleted the log.' },
    { toolCalls: [{ name: 'notes__delete_file', input: { path: '/home/you/thesis.tex' } }] },
    { text: 'I did not delete it.' },
  ],
  {
    everything: { command: process.execPath, args: [everythingServer, 'stdio'] },
    notes: { ...fixtureCommand('toolChangeServer', ['--changed-if', '/nonexistent']), trusted: true },
  },
);

test('a person allows a pasted server’s read-only tool for good, answers a step at once, and is asked again only where untrusted content could steer a destructive tool', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, env().host, ['everything', 'notes']);
  const lastReply = page.getByRole('listitem', { name: 'Assistant' }).last();

  await test.step('echo of the pasted server, allowed always, keeps running after its own result', async () => {
    await sendMessage(page, 'echo hello, then again');
    const dialog = page.getByRole('dialog', { name: 'Run echo?' });
    await expect(dialog.getByTestId('lasting-reach')).toHaveText(
      'Allowing echo lasts, also once the conversation holds content Atrium does not trust: echo declares it deletes nothing and stays on this computer. That is only what everything says: your answer takes its word.',
    );
    await expect(dialog.getByRole('radio', { name: 'This tool' })).toBeChecked();
    await page.mouse.move(0, 0);
    await page.screenshot({ path: 'e2e/artifacts/consent-reach-echo.png' });
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    await expect(lastReply).toContainText('Echoed twice.');
    await expect(page.getByRole('article', { name: /^Tool call everything\/echo/ })).toHaveCount(2);
  });

  await test.step('two calls of one step are asked once and answered together', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'add 1 and 2, and tidy up');
    const dialog = page.getByRole('dialog', { name: 'Run get-sum?' });
    const step = dialog.getByRole('region', { name: 'Other calls in this step' });
    await expect(step).toContainText('The model asks for one more call in this step');
    await expect(step.getByRole('listitem')).toHaveText(/notes\/delete_file.*\{"path":"\/tmp\/atrium-old\.log"\}/);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: 'e2e/artifacts/consent-reach-step.png' });
    await step.getByRole('button', { name: 'Allow these 2 calls' }).click();
    await expect(lastReply).toContainText('Summed and tidied.');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('a destructive tool says, before “always” is chosen, that untrusted content will make it ask again', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'delete the old log');
    const dialog = page.getByRole('dialog', { name: 'Run delete_file?' });
    await expect(dialog.getByTestId('lasting-reach')).toHaveText(
      'Allowing delete_file lasts until a conversation holds content Atrium does not trust (from a server you do not trust, or a tool that reads the web); from then on delete_file asks every time in that conversation, because it may delete things.',
    );
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    await expect(lastReply).toContainText('Deleted the log.');
  });

  await test.step('after a resource of the pasted server is attached, the delete allowed always asks again, naming it, and offers only this once', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('button', { name: 'Resources' }).click();
    await page.getByRole('searchbox', { name: 'Search resources' }).fill('architecture');
    await page.getByRole('list', { name: 'Resources of everything' }).getByRole('button', { name: 'architecture.md' }).click();
    await page.getByRole('article', { name: 'Resource architecture.md' }).getByRole('button', { name: 'Attach to next message' }).click();
    await sendMessage(page, 'read this, then tidy up');
    const dialog = page.getByRole('dialog', { name: 'Run delete_file?' });
    await expect(dialog.getByTestId('raised-bar')).toContainText(
      'this conversation holds the resource demo://resource/static/document/architecture.md of everything (a server you do not trust), which may carry instructions',
    );
    await expect(dialog.getByRole('button', { name: 'Always allow' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Allow in this conversation' })).toHaveCount(0);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: 'e2e/artifacts/consent-reach-raised.png' });
    await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(lastReply).toContainText('I did not delete it.');
  });

  await test.step('Servers › Permissions shows the rules; the read-only tools of the pasted server are allowed there, and echo’s rule is revoked', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'everything', exact: true }).getByRole('button', { name: 'everything', exact: true }).click();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    const rules = page.getByRole('list', { name: 'Rules for everything' });
    await expect(rules.getByRole('combobox', { name: 'Rule for echo' })).toHaveValue('allow');
    await expect(rules.getByRole('combobox', { name: 'Rule for get-sum' })).toHaveValue('ask');
    const readOnly = rules.getByRole('combobox', { name: /^Rule for Its read-only tools \(\d+\)$/ });
    await readOnly.selectOption('allow');
    await expect(readOnly).toHaveValue('allow');
    const echo = rules.getByRole('combobox', { name: 'Rule for echo' });
    await echo.selectOption('ask');
    await expect(echo).toHaveValue('ask');
    await expect(echo.locator('option:checked'), 'without a rule of its own, echo follows the read-only tools’ rule').toHaveText('Allowed with its read-only tools');
    await expect(rules.getByRole('combobox', { name: 'Rule for get-sum' }).locator('option:checked')).toHaveText('Allowed with its read-only tools');
    await expect(rules.getByRole('combobox', { name: 'Rule for gzip-file-as-resource' }).locator('option:checked')).toHaveText('Ask as usual');
    await page.screenshot({ path: 'e2e/artifacts/consent-reach-rules.png' });
  });
});
