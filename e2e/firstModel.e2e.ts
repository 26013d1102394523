// The first chat after adding a provider in Settings, as a newcomer does it: the model the picker shows
// is the model that answers, a server's sampling request uses the conversation's model, and a new
// conversation starts from the default again, not from the last pick. No words in the window ask for a
// JSON file or a command-line flag.
import type { Page } from '@playwright/test';
import type { FakeLlmServer } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import type { RunningHost } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import { sendMessage } from './fixtures/chatHost.ts';
import { fixtureCommand } from './servers/launch.ts';

let llm: FakeLlmServer;
let running: RunningHost;

test.beforeAll(async () => {
  llm = await startFakeAnthropic(
    [
      { text: 'Hello from the first model.' },
      { toolCalls: [{ name: 'echo__sample', input: { prompt: 'Say hello to Atrium' } }] },
      { text: 'Hello, Atrium!' },
      { text: 'The server heard back.' },
      { text: 'A new conversation, on the default model.' },
    ],
    { models: ['claude-fake-1', 'claude-fake-2'] },
  );
  // No providers at all: the person adds one, with its key, in Settings.
  running = await startHostProcess({ mcpServers: { echo: fixtureCommand('echoServer') } });
});

test.afterAll(async () => {
  await running?.stop();
  await llm?.close();
});

/** The model requested by the fake's latest chat request, and the one before it. */
function requestedModels(): string[] {
  return llm.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { model: string }).model);
}

async function expectNoCommandLineWords(page: Page): Promise<void> {
  const words = (await page.locator('body').textContent()) ?? '';
  expect(words).not.toMatch(/providers\.json|--model|--provider/);
}

test('the first chat after adding a provider uses the model the picker shows, for replies and sampling', async ({ page }) => {
  await page.goto(running.host.url);
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();

  await test.step('a provider is added in Settings, with no default model chosen', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('fake');
    await form.getByRole('combobox', { name: 'API' }).selectOption('anthropic');
    await form.getByRole('textbox', { name: /^Base URL/ }).fill(llm.url);
    await form.getByLabel(/^API key/).fill('sk-ant-e2e-not-real');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await expect(page.getByRole('status').filter({ hasText: '✓' })).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/first-model-provider-added.png' });
  });

  const picker = page.getByRole('combobox', { name: 'Model' });
  await test.step('the chat shows a model, and that model answers the first message', async () => {
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(picker.locator('option:checked')).toHaveText('claude-fake-1');
    await sendMessage(page, 'hello');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Hello from the first model.');
    expect(requestedModels().at(-1)).toBe('claude-fake-1');
    await expectNoCommandLineWords(page);
    await page.screenshot({ path: 'e2e/artifacts/first-model-first-reply.png' });
  });

  await test.step("a server's sampling request uses the model picked for the conversation, and asks first", async () => {
    await picker.selectOption({ label: 'claude-fake-2' });
    await sendMessage(page, 'use sampling');
    await page.getByRole('dialog', { name: 'Run sample?' }).getByRole('button', { name: 'Allow once' }).click();
    const request = page.getByRole('dialog', { name: 'Use your model for a server?' });
    await expect(request.getByRole('combobox', { name: 'Model' })).toHaveValue('claude-fake-2');
    await page.screenshot({ path: 'e2e/artifacts/first-model-sampling.png' });
    await request.getByRole('button', { name: 'Run it' }).click();
    const review = page.getByRole('dialog', { name: 'Send this reply to the server?' });
    await review.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The server heard back.');
    expect(requestedModels().slice(-3), 'the turn, the sampling and the turn again all went to the picked model').toEqual(['claude-fake-2', 'claude-fake-2', 'claude-fake-2']);
    await expectNoCommandLineWords(page);
  });

  await test.step('a new conversation starts on the default model, not on the last pick', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect(picker.locator('option:checked')).toHaveText('claude-fake-1');
    await sendMessage(page, 'and now?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('A new conversation, on the default model.');
    expect(requestedModels().at(-1)).toBe('claude-fake-1');
    await page.screenshot({ path: 'e2e/artifacts/first-model-new-conversation.png' });
    // The conversation that was switched keeps its own model.
    await page.getByRole('button', { name: 'hello', exact: true }).click();
    await expect(picker.locator('option:checked')).toHaveText('claude-fake-2');
  });
});

test('a provider that offers no model says why beside the picker, and sending says what to do in Settings', async ({ page }) => {
  // Nothing answers on the discard port, and no models were given when the provider was added.
  const offline = await startHostProcess({
    mcpServers: {},
    providers: { providers: [{ id: 'offline', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKeySecret: 'offline' }] },
    env: { ATRIUM_SECRET_OFFLINE: 'sk-ant-e2e-not-real' },
  });
  try {
    await page.goto(offline.host.url);
    await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'No model to use' })).toContainText('cannot reach http://127.0.0.1:9');
    await sendMessage(page, 'hello?');
    await expect(page.getByRole('alert')).toContainText('in Settings');
    await expect(page.getByRole('textbox', { name: 'Message' }), 'the words typed are kept').toHaveValue('hello?');
    await expectNoCommandLineWords(page);
    await page.screenshot({ path: 'e2e/artifacts/first-model-no-model.png' });
  } finally {
    await offline.stop();
  }
});
