// MCP Tasks as a person meets them: a call that runs on as a task is a card with its status, the
// server's message, its time and Cancel, and the conversation stays live — a second message is answered
// while it runs; the Tasks panel lists tasks across conversations; a task's question is asked in its
// dialog, naming the task; a cancelled task says so; a result that comes in after the person moved on is
// shown in its conversation; server-everything's four task tools complete through the window. Screenshots
// in e2e/artifacts/tasks-*.png.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { FakeLlmServer } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import { E2E_MODEL, openApp, sendMessage } from './fixtures/chatHost.ts';
import { violationsInBothThemes } from './fixtures/axe.ts';
import type { HostProcess } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import type { HttpFixtureHandle } from './servers/launch.ts';
import { startHttpFixture } from './servers/launch.ts';

const require = createRequire(import.meta.url);
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let llm: FakeLlmServer;
let tasks: HttpFixtureHandle;
let host: HostProcess;
let stopHost: () => Promise<unknown>;

test.beforeAll(async () => {
  tasks = await startHttpFixture('taskServer');
  llm = await startFakeAnthropic([
    { toolCalls: [{ id: 'call_survey', name: 'tasks__slow_task', input: { seconds: 8, pollMs: 500, label: 'The survey' } }] },
    { text: 'The survey runs as a task; I will tell you when it is done.' },
    { text: '2 + 2 is 4.' },
    { toolCalls: [{ id: 'call_research', name: 'everything__simulate-research-query', input: { topic: 'python', ambiguous: true } }] },
    { text: 'Researching; it may ask you something.' },
    { toolCalls: [{ id: 'call_forever', name: 'tasks__cancel_task', input: {} }] },
    { text: 'Started the job that runs until cancelled.' },
    { toolCalls: [{ id: 'call_tides', name: 'everything__simulate-research-query', input: { topic: 'tides' } }] },
    { text: 'Researching the tides.' },
    { toolCalls: [{ id: 'call_sample', name: 'everything__trigger-sampling-request-async', input: { prompt: 'hello' } }] },
    { text: 'a sampled reply' },
    { text: 'The server heard back.' },
    { toolCalls: [{ id: 'call_ask', name: 'everything__trigger-elicitation-request-async', input: {} }] },
    { text: 'You answered.' },
  ]);
  const started = await startHostProcess({
    mcpServers: { tasks: { url: tasks.url }, everything: { command: process.execPath, args: [everythingServer, 'stdio'] } },
    providers: { providers: [{ id: 'claude', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'claude' }], default: { provider: 'claude', model: E2E_MODEL } },
    env: { ATRIUM_SECRET_CLAUDE: 'sk-ant-e2e-not-real' },
  });
  host = started.host;
  stopHost = started.stop;
});

test.afterAll(async () => {
  await stopHost?.();
  await llm?.close();
  await tasks?.stop();
});

/** Allows every tool of the call's server in this conversation. */
async function allowServer(page: Page, tool: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: `Run ${tool}?` });
  await dialog.getByRole('radio', { name: /Every tool of this server/ }).check();
  await dialog.getByRole('button', { name: 'Allow in this conversation' }).click();
}

/** Once the conversation has read a server's result, each further call of an untrusted server asks again. */
async function allowOnce(page: Page, tool: string): Promise<void> {
  await page.getByRole('dialog', { name: `Run ${tool}?` }).getByRole('button', { name: 'Allow once' }).click();
}

test('a long call runs as a task while the conversation goes on; its question, its Cancel, the Tasks panel and a result that comes in later', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page, host, ['tasks', 'everything']);
  const survey = page.getByRole('article', { name: 'Tool call tasks/slow_task' });

  await test.step('the call becomes a task: its card shows where it stands, and the turn is over', async () => {
    await sendMessage(page, 'run the survey');
    await allowServer(page, 'slow_task');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('I will tell you when it is done.');
    await expect(survey.getByRole('status').first()).toHaveText('Running as a task');
    await expect(survey).toContainText(/second \d of 8/);
    await expect(survey.getByRole('button', { name: 'Cancel task' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Tasks · 1 running' })).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/tasks-running-card.png' });
    // The box answers the click at once (the host's word follows): ticked, then unticked again.
    const followUp = survey.getByRole('checkbox', { name: 'Let the model answer as soon as it finishes' });
    await followUp.check();
    await followUp.uncheck();
    await expect(followUp).not.toBeChecked();
  });

  await test.step('a second message is answered while the task runs', async () => {
    await sendMessage(page, 'what is 2 + 2?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('2 + 2 is 4.');
    await expect(survey.getByRole('status').first()).toHaveText('Running as a task');
  });

  await test.step('the Tasks panel lists it, with its conversation', async () => {
    await page.getByRole('button', { name: 'Tasks · 1 running' }).click();
    const panel = page.getByRole('complementary', { name: 'Tasks' });
    await expect(panel.getByRole('listitem')).toHaveCount(1);
    await expect(panel).toContainText('tasks / slow_task');
    await expect(panel.getByRole('button', { name: 'run the survey' })).toBeVisible();
    // A panel over the right of the window, below the top bar, the conversation beside it where it was
    // (a stylesheet that lost a closing brace once left it a bare block under the chat, as wide as the window).
    const [box, window, chat] = [await panel.boundingBox(), page.viewportSize(), await page.getByRole('main').boundingBox()];
    expect(box && window && chat, 'the panel, the window and the chat are laid out').toBeTruthy();
    if (box && window && chat) {
      expect(window.width - (box.x + box.width), 'the panel keeps to the right edge').toBeLessThan(24);
      expect(box.width, 'the panel is a side panel, not the width of the window').toBeLessThan(window.width / 2);
      expect(box.y, 'the panel starts below the top bar, beside the conversation').toBeLessThan(chat.y + 24);
      expect(chat.height, 'the conversation keeps its height').toBeGreaterThan(window.height / 2);
    }
    await page.screenshot({ path: 'e2e/artifacts/tasks-panel.png' });
    expect(await violationsInBothThemes(page, 'the Tasks panel and a running task')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(page.getByRole('button', { name: /^Tasks/ }), 'the keyboard goes back to the button that opened it').toBeFocused();
    // Tabbed out of, the panel closes rather than float over the control that has the keyboard now.
    await page.keyboard.press('Enter');
    await expect(panel).toBeVisible();
    // Its controls (the conversation, the follow-up choice, Cancel task), then one more Tab: out of it.
    for (let presses = 0; presses < 10 && (await panel.isVisible()); presses += 1) await page.keyboard.press('Tab');
    await expect(panel, 'the keyboard left the panel, and the panel went').toBeHidden();
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document.activeElement?.tagName), 'the keyboard is on the control it went to').not.toBe('BODY');
    // A conversation chosen in the panel is where the person goes: the cursor waits in its message box.
    await page.getByRole('button', { name: 'Tasks · 1 running' }).click();
    await panel.getByRole('button', { name: 'run the survey' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Message' }), 'the cursor is in the message box').toBeFocused();
  });

  await test.step('the person moves on to another conversation; the result comes in there all the same', async () => {
    await page.keyboard.press('Control+Shift+O');
    await expect(page.getByRole('button', { name: 'Tasks', exact: true })).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'run the survey', exact: true }).click();
    await expect(survey.getByRole('status').first()).toHaveText(/^Task finished/);
    await expect(survey.getByLabel('Result of slow_task')).toContainText('The survey done after 8 s');
    const landed = page.getByRole('listitem', { name: 'Task result from tasks/slow_task' });
    await expect(landed).toContainText('The task of tasks / slow_task finished');
    await expect(landed).toContainText('The survey done after 8 s');
    // What the model is told names the call and the task by their ids; the person reads it without them.
    await expect(landed).not.toContainText('(call ');
    await expect(landed).toContainText('the model reads this with its next request');
    await landed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'e2e/artifacts/tasks-result-landed.png' });
  });

  await test.step("a task's question is asked in its dialog, naming the task", async () => {
    await sendMessage(page, 'research python');
    await allowOnce(page, 'simulate-research-query');
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await expect(form).toContainText('For the task of simulate-research-query, which runs on while you chat.');
    await expect(form).toContainText('could have multiple interpretations');
    await form.getByRole('combobox', { name: /Clarification/ }).selectOption({ label: 'Python snake species' });
    await page.screenshot({ path: 'e2e/artifacts/tasks-question.png' });
    expect(await violationsInBothThemes(page, "a task's question")).toEqual([]);
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form).toBeHidden();
    const research = page.getByRole('article', { name: 'Tool call everything/simulate-research-query' });
    await expect(research.getByRole('status').first()).toHaveText(/^Task finished/, { timeout: 20_000 });
    await expect(research.getByLabel('Result of simulate-research-query')).toContainText('Research Report: python (snake)');
    // The model has answered since the survey's result came in: the note no longer says it will read it.
    await expect(page.getByRole('listitem', { name: 'Task result from tasks/slow_task' })).toContainText('the model has read this');
  });

  await test.step('Cancel ends a task with tasks/cancel, and its card says it was cancelled', async () => {
    await sendMessage(page, 'start the job that never ends');
    await allowOnce(page, 'cancel_task');
    const job = page.getByRole('article', { name: 'Tool call tasks/cancel_task' });
    await expect(job.getByRole('status').first()).toHaveText('Running as a task');
    await job.getByRole('button', { name: 'Cancel task' }).click();
    await expect(job.getByRole('status').first()).toHaveText(/^Task cancelled/);
    await expect(page.getByRole('listitem', { name: 'Task result from tasks/cancel_task' })).toContainText('was cancelled');
    await tasks.waitForStderr(/^request tasks\/cancel /);
    await page.screenshot({ path: 'e2e/artifacts/tasks-cancelled.png' });
  });

  await test.step("server-everything's other task tools complete through the window: a plain research, and a sampling and a question it sends as tasks", async () => {
    await sendMessage(page, 'research the tides');
    await allowOnce(page, 'simulate-research-query');
    const tides = page.getByRole('article', { name: 'Tool call everything/simulate-research-query' }).last();
    await expect(tides.getByRole('status').first()).toHaveText(/^Task finished/, { timeout: 20_000 });
    await expect(tides.getByLabel('Result of simulate-research-query')).toContainText('Research Report: tides');

    await sendMessage(page, 'have the server ask your model');
    await allowOnce(page, 'trigger-sampling-request-async');
    await page.getByRole('dialog', { name: 'Use your model for a server?' }).getByRole('button', { name: 'Run it' }).click();
    const review = page.getByRole('dialog', { name: 'Send this reply to the server?' });
    await review.getByRole('button', { name: 'Send reply' }).click();
    await expect(review).toBeHidden();
    const sampled = page.getByRole('article', { name: 'Tool call everything/trigger-sampling-request-async' });
    await expect(sampled.getByLabel('Result of trigger-sampling-request-async')).toContainText('a sampled reply', { timeout: 20_000 });

    await sendMessage(page, 'have the server ask me');
    await allowOnce(page, 'trigger-elicitation-request-async');
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await form.getByRole('textbox', { name: /Your Name/ }).fill('Ada');
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form).toBeHidden();
    const asked = page.getByRole('article', { name: 'Tool call everything/trigger-elicitation-request-async' });
    await expect(asked.getByLabel('Result of trigger-elicitation-request-async')).toContainText('Name: Ada', { timeout: 20_000 });
    await asked.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'e2e/artifacts/tasks-everything-tools.png' });
  });
});
