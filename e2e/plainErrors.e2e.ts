// Mistakes a newcomer makes, and what the window then says: every problem with a form comes at once,
// beside the field it concerns, in the form's own words (its labels, never a request key or a schema
// rule), with what to do, and what was typed stays. Also: a remote server nothing answers for, and a
// link whose token is out of date.
import { createServer } from 'node:net';
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Tell me about you', form: 'profile' } }] },
    { text: 'Thanks, Ada.' },
  ],
  { echo: fixtureCommand('echoServer') },
);

/** Words that belong to requests and schemas, never to a window. */
const internalWording = /Invalid params|must NOT|must match|pattern|serverId|provider\.id|required property|instancePath|\bentry\./;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function openServers(page: Page): Promise<void> {
  await openApp(page, env().host, ['echo']);
  await page.getByRole('button', { name: 'Servers' }).click();
}

test('server editor: an empty name and command are both said beside their fields, and what was typed stays', async ({ page }) => {
  // A laptop's window: the form is taller than it, so it scrolls to Save and back to the first field at fault.
  await page.setViewportSize({ width: 1024, height: 640 });
  await openServers(page);
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByRole('dialog', { name: 'Add a server' });
  const name = form.getByRole('textbox', { name: 'Name', exact: true });
  const command = form.getByRole('textbox', { name: 'Command', exact: true });
  const args = form.getByRole('textbox', { name: 'Arguments (one per line)' });
  await args.fill('server.js\n--verbose');
  await form.getByRole('button', { name: 'Save' }).click();

  await expect(name).toHaveAccessibleDescription('Name is required: give the server a short name, for example "files".');
  await expect(command).toHaveAccessibleDescription('Command is required: the program that starts the server, for example npx or node.');
  await expect(name, 'the first field at fault has the focus').toBeFocused();
  await expect(form.getByText('Name', { exact: true }), 'with its label in view, not only its box').toBeInViewport({ ratio: 1 });
  await expect(form.getByText('Name is required: give the server a short name, for example "files".')).toBeVisible();
  await expect(form.getByRole('alert')).toHaveText('Not saved: correct the fields marked above.');
  await expect(args, 'what was typed stays').toHaveValue('server.js\n--verbose');
  await expect(form).not.toContainText(internalWording);
  await page.screenshot({ path: 'e2e/artifacts/errors-server-editor.png' });

  await name.fill('echo');
  await command.fill('node');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(name, 'a taken name is said beside it').toHaveAccessibleDescription('Name "echo" is taken by another server: choose another name.');
  await expect(command, 'a field put right loses its problem').toHaveAccessibleDescription('');
  await form.getByRole('button', { name: 'Cancel' }).click();
});

test('a remote server at a bad address, then at one where nothing answers: each said in plain words', async ({ page }) => {
  const address = `http://127.0.0.1:${await closedPort()}/mcp`;
  await openServers(page);
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByRole('dialog', { name: 'Add a server' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('faraway');
  await form.getByRole('combobox', { name: 'Kind' }).selectOption('http');
  const field = form.getByRole('textbox', { name: 'Address', exact: true });
  await field.fill('localhost:9/mcp');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(field).toHaveAccessibleDescription(
    'Address "localhost:9/mcp" is not a web address: it starts with https:// (or http://), for example https://example.com/mcp.',
  );
  await expect(field).toHaveValue('localhost:9/mcp');

  await field.fill(address);
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog', { name: 'Start faraway?' }).getByRole('button', { name: 'Start server' }).click();
  const card = page.getByRole('article', { name: 'faraway', exact: true });
  await expect(card).toContainText(`could not reach the server at ${address}. Check that the address is right, that the server is running, and that this computer is online.`);
  await expect(card).not.toContainText(/Version negotiation|fetch failed/);
  await page.screenshot({ path: 'e2e/artifacts/errors-unreachable-server.png' });
  await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status'), 'the other server is untouched').toHaveText('Ready');
});

test('settings: a provider name and base URL that do not fit are both said beside their fields, and nothing typed is wiped', async ({ page }) => {
  await openApp(page, env().host, []);
  await page.getByRole('button', { name: 'Settings' }).click();
  const form = page.getByRole('form', { name: 'Add a provider' });
  const name = form.getByRole('textbox', { name: /^Name/ });
  const baseUrl = form.getByRole('textbox', { name: /^Base URL/ });
  await name.fill('My Claude');
  await baseUrl.fill('localhost:11434/v1');
  await form.getByRole('button', { name: 'Add provider' }).click();

  await expect(name).toHaveAccessibleDescription(
    'Name may use only lowercase letters, digits and dashes, starting with a letter or digit, up to 40 characters (for example "claude" or "local-llm").',
  );
  await expect(baseUrl).toHaveAccessibleDescription('Base URL must start with http:// or https:// (for example http://127.0.0.1:11434/v1).');
  await expect(name, 'the name is not wiped').toHaveValue('My Claude');
  await expect(baseUrl).toHaveValue('localhost:11434/v1');
  await expect(page.getByRole('main')).not.toContainText(internalWording);
  await page.screenshot({ path: 'e2e/artifacts/errors-settings-provider.png' });

  await name.fill('my-claude');
  await baseUrl.fill('http://127.0.0.1:11434/v1');
  await form.getByRole('button', { name: 'Add provider' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added my-claude' })).toBeVisible();
  await expect(name, 'once added, the form is empty again').toHaveValue('');
  await expect(name).toHaveAccessibleDescription('');
});

test('an elicitation form reports every wrong field at once, beside each, by the label the person sees', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'ask about me');
  await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
  const form = page.getByRole('dialog', { name: 'Information requested' });
  const name = form.getByRole('textbox', { name: 'Your name' });
  const homepage = form.getByRole('textbox', { name: 'Home page' });
  const age = form.getByRole('spinbutton', { name: 'Age' });
  await name.fill('A');
  await age.fill('200');
  await form.getByRole('button', { name: 'Send answer' }).click();

  await expect(name).toHaveAccessibleDescription('Your name needs at least 2 characters.');
  await expect(homepage).toHaveAccessibleDescription('Home page is required: fill it in.');
  await expect(age).toHaveAccessibleDescription('Age must be at most 150.');
  await expect(name, 'the first field at fault has the focus').toBeFocused();
  await expect(form, 'no internal key or schema wording').not.toContainText(/"name"|homepage|required property|must be <=/);
  await expect(name, 'what was typed stays').toHaveValue('A');
  await expect(age).toHaveValue('200');
  await page.screenshot({ path: 'e2e/artifacts/errors-elicitation-form.png' });

  await name.fill('Ada');
  await homepage.fill('not a page');
  await age.fill('36');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(homepage).toHaveAccessibleDescription('Home page must be a web address, like https://example.com.');
  await expect(name).toHaveAccessibleDescription('');
  await homepage.fill('https://ada.example.com');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Thanks, Ada.');
});

test('a link whose token is not valid says so and what to do, and stops trying', async ({ page }) => {
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.clock.install();
  const url = new URL(env().host.url);
  url.hash = 'token=from-an-earlier-start';
  await page.goto(url.href);
  await expect(page.getByText(/This link is not valid or is out of date/)).toBeVisible();
  await expect(page.getByRole('status', { name: 'Connection: Not connected' })).toBeVisible();
  await expect(page.getByText(/is Atrium still running/)).toHaveCount(0);
  await page.screenshot({ path: 'e2e/artifacts/errors-bad-token.png' });
  const attempts = sockets.length;
  await page.clock.runFor(60_000);
  await expect(page.getByText(/This link is not valid or is out of date/)).toBeVisible();
  expect(sockets.length, 'nothing is retried with a token the host refuses').toBe(attempts);
});
