// Roots as a person picks them in the browser: a typed path is checked, a good folder is sent to the
// server that asks for roots, and switching to another workspace changes what the server sees.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import type { FakeLlmServer } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import type { HostProcess } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

let llm: FakeLlmServer;
let host: HostProcess;
let stopHost: () => Promise<unknown>;
let project: string;

test.beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'atrium-e2e-project-')));
  llm = await startFakeAnthropic([
    { toolCalls: [{ name: 'echo__roots', input: {} }] },
    { text: 'Those are your folders.' },
    { toolCalls: [{ name: 'echo__roots', input: {} }] },
    { text: 'None now.' },
  ]);
  const started = await startHostProcess({
    mcpServers: { echo: fixtureCommand('echoServer') },
    providers: { providers: [{ id: 'claude', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'claude' }], default: { provider: 'claude', model: 'claude-e2e' } },
    env: { ATRIUM_SECRET_CLAUDE: 'sk-ant-e2e-not-real' },
  });
  host = started.host;
  stopHost = started.stop;
});

test.afterAll(async () => {
  await stopHost?.();
  await llm?.close();
  await rm(project, { recursive: true, force: true });
});

async function askForRoots(page: Page, text: string, approve: boolean): Promise<string> {
  await page.getByRole('button', { name: 'Chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  // The server is not trusted, so its tool asks once; the answer holds for the conversation.
  if (approve) await page.getByRole('dialog', { name: 'Run roots?' }).getByRole('button', { name: 'Allow in this conversation' }).click();
  const result = page.getByRole('article', { name: 'Tool call echo/roots' }).last().getByLabel('Result of roots');
  await expect(result).toBeVisible();
  return (await result.textContent()) ?? '';
}

test('roots: a typed folder is checked, sent to the server, and replaced by another workspace’s', async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  const uri = pathToFileURL(project).href;

  await test.step('a folder that does not exist is refused with the reason; one that does is added', async () => {
    await page.getByRole('button', { name: 'Roots' }).click();
    const workspace = page.getByRole('region', { name: 'Workspace Default' });
    await expect(workspace).toContainText('Active: servers see these folders.');
    const field = workspace.getByRole('textbox', { name: 'Add a folder (its full path)' });
    await field.fill(join(project, 'no-such-folder'));
    await workspace.getByRole('button', { name: 'Add folder' }).click();
    await expect(workspace.getByRole('alert')).toContainText('does not exist');
    await field.fill(project);
    await workspace.getByRole('button', { name: 'Add folder' }).click();
    await expect(workspace.getByRole('list', { name: 'Folders of Default' })).toContainText(uri);
    await page.screenshot({ path: 'e2e/artifacts/roots.png' });
  });

  await test.step('the server that asks for roots gets the folder', async () => {
    expect(await askForRoots(page, 'which folders can you see?', true)).toContain(uri);
  });

  await test.step('another workspace made active replaces what the server sees', async () => {
    await page.getByRole('button', { name: 'Roots' }).click();
    await page.getByRole('textbox', { name: 'New workspace name' }).fill('Scratch');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Scratch' }).click();
    await page.getByRole('region', { name: 'Workspace Scratch' }).getByRole('button', { name: 'Make active' }).click();
    await expect(page.getByRole('region', { name: 'Workspace Scratch' })).toContainText('Active: servers see these folders.');
    await page.getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'which folders can you see?', exact: true }).click();
    expect(await askForRoots(page, 'and now?', false)).toBe('[]');
  });
});
