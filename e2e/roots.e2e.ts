// Roots as a person picks them in the browser: a typed path is checked, a good folder is sent to the
// server that asks for roots, and switching to another workspace changes what the server sees.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

let project: string;

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'echo__roots', input: {} }] },
    { text: 'Those are your folders.' },
    { toolCalls: [{ name: 'echo__roots', input: {} }] },
    { text: 'None now.' },
  ],
  { echo: fixtureCommand('echoServer') },
);

test.beforeAll(async () => {
  project = await realpath(await mkdtemp(join(tmpdir(), 'atrium-e2e-project-')));
});
test.afterAll(() => rm(project, { recursive: true, force: true }));

/** Sends `text`, waits for the model's `reply`, and returns what the roots tool answered the model. */
async function askForRoots(page: Page, text: string, reply: string): Promise<string> {
  await sendMessage(page, text);
  // The server is not trusted, so its tool asks; once the conversation has read its answer, it asks every time.
  await page.getByRole('dialog', { name: 'Run roots?' }).getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText(reply);
  // The model's latest request carries the whole conversation; the newest tool result is this call's.
  const body = env().llm.requests.filter((r) => r.method === 'POST').at(-1)?.body as { messages: { content: unknown }[] };
  const results = body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; content?: { text?: string }[] }[]) : [])).filter((b) => b.type === 'tool_result');
  return results.at(-1)?.content?.[0]?.text ?? '';
}

test('MCP 2024-11-05 Roots (roots/list, list_changed): a typed folder is checked, sent to the server, and replaced by another workspace’s', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  const uri = pathToFileURL(project).href;

  await test.step('a relative path and a folder that does not exist are refused beside the field, keeping what was typed; one that does is added', async () => {
    await page.getByRole('button', { name: 'Roots' }).click();
    const workspace = page.getByRole('region', { name: 'Workspace Default' });
    await expect(workspace).toContainText('Active: servers see these folders.');
    // The browser has no folder picker: a path is typed (the desktop app adds "Choose folder…").
    await expect(workspace).toContainText('The desktop app can also open the system’s folder picker.');
    await expect(workspace.getByRole('button', { name: 'Choose folder…' })).toHaveCount(0);
    const field = workspace.getByRole('textbox', { name: 'Add a folder (its full path)' });
    await field.fill('projects/app');
    await workspace.getByRole('button', { name: 'Add folder' }).click();
    await expect(field, 'a relative path is refused as one, beside the field').toHaveAccessibleDescription(
      'the folder "projects/app" must be a whole path: type it in full, for example /home/you/projects/app',
    );
    await expect(field, 'what was typed stays').toHaveValue('projects/app');
    await page.screenshot({ path: 'e2e/artifacts/roots-relative-path.png' });
    await field.fill(join(project, 'no-such-folder'));
    await workspace.getByRole('button', { name: 'Add folder' }).click();
    await expect(field).toHaveAccessibleDescription(/there is no folder/);
    await field.fill(project);
    await workspace.getByRole('button', { name: 'Add folder' }).click();
    await expect(workspace.getByRole('list', { name: 'Folders of Default' })).toContainText(uri);
    await expect(field, 'an added folder clears the field and its problem').toHaveValue('');
    await expect(field).toHaveAccessibleDescription('');
    await page.screenshot({ path: 'e2e/artifacts/roots.png' });
  });

  await test.step('the server that asks for roots gets the folder', async () => {
    expect(JSON.parse(await askForRoots(page, 'which folders can you see?', 'Those are your folders.'))).toEqual([uri]);
  });

  await test.step('another workspace made active replaces what the server sees', async () => {
    await page.getByRole('button', { name: 'Roots' }).click();
    // A folder typed into the name's field makes no workspace: it says to name it, and what.
    const newName = page.getByRole('textbox', { name: 'New workspace name' });
    await newName.fill('/tmp/scratch');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // Said under the name's field, where it was typed, as a sentence; what was typed stays to correct.
    await expect(newName).toHaveAccessibleDescription('"/tmp/scratch" is a folder, not a name: give the workspace a name (such as "scratch"), then add the folder to it.');
    await expect(newName).toHaveValue('/tmp/scratch');
    await expect(newName).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('navigation', { name: 'Workspaces' }).screenshot({ path: 'e2e/artifacts/roots-name-refused.png' });
    await expect(page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: '/tmp/scratch' })).toHaveCount(0);
    await page.getByRole('textbox', { name: 'New workspace name' }).fill('Scratch');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Scratch' }).click();
    await page.getByRole('region', { name: 'Workspace Scratch' }).getByRole('button', { name: 'Make active' }).click();
    await expect(page.getByRole('region', { name: 'Workspace Scratch' })).toContainText('Active: servers see these folders.');
    // The list says which one is active beside its name, on the same line.
    const scratch = page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: 'Scratch' });
    const chip = await scratch.getByText('active', { exact: true }).boundingBox();
    const row = await scratch.boundingBox();
    expect(chip && row && Math.abs(chip.y + chip.height / 2 - (row.y + row.height / 2)), 'the chip is centred on the name’s line').toBeLessThan(4);
    await page.getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'which folders can you see?', exact: true }).click();
    expect(JSON.parse(await askForRoots(page, 'and now?', 'None now.'))).toEqual([]);
  });
});

test('a folder deleted while Atrium runs is marked missing when Roots is opened again, and no longer given to servers', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  const gone = await realpath(await mkdtemp(join(tmpdir(), 'atrium-e2e-gone-')));
  await page.getByRole('button', { name: 'Roots' }).click();
  const active = page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: /active/ });
  const name = ((await active.textContent()) ?? '').replace(/active$/, '').trim();
  const workspace = page.getByRole('region', { name: `Workspace ${name}` });
  await workspace.getByRole('textbox', { name: 'Add a folder (its full path)' }).fill(gone);
  await workspace.getByRole('button', { name: 'Add folder' }).click();
  const folders = workspace.getByRole('list', { name: `Folders of ${name}` });
  await expect(folders).toContainText(pathToFileURL(gone).href);
  await expect(folders).not.toContainText('missing');
  await rm(gone, { recursive: true, force: true });
  await page.getByRole('button', { name: 'Chat' }).click();
  await page.getByRole('button', { name: 'Roots' }).click();
  await expect(folders.getByRole('listitem').filter({ hasText: pathToFileURL(gone).href })).toContainText('(missing: not sent to servers)');
  await page.screenshot({ path: 'e2e/artifacts/roots-folder-gone.png' });
});
