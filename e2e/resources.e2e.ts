// The resources browser against the real server-everything: search, read a Markdown document rendered,
// open a template-made resource, watch a resource and see the server's update arrive, and attach a
// resource to the next message so the model gets its text.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, lastModelRequest, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';

const require = createRequire(import.meta.url);
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');


const env = chatHostFor(
  [
    { toolCalls: [{ name: 'everything__toggle-subscriber-updates', input: {} }] },
    { text: 'Updates are on.' },
    { text: 'I read the architecture document.' },
  ],
  { everything: { command: process.execPath, args: [everythingServer, 'stdio'] } },
);

/** Fills one of server-everything's templates with `resourceId` and opens what it names. */
async function openFromTemplate(page: Page, template: string, resourceId: string): Promise<void> {
  await page.getByRole('list', { name: 'Resource templates of everything' }).getByRole('button', { name: template }).click();
  const form = page.getByRole('form', { name: `Template ${template}` });
  await form.getByRole('combobox', { name: 'resourceId' }).fill(resourceId);
  await form.getByRole('button', { name: 'Open resource' }).click();
}

test('MCP 2024-11-05 Resources (templates, subscriptions): search, read by type, a template, live updates, attach to a message', async ({ page }) => {
  await openApp(page, env().host, ['everything']);
  await page.getByRole('button', { name: 'Resources' }).click();
  const list = page.getByRole('list', { name: 'Resources of everything' });

  await test.step('search narrows the list; a Markdown document is rendered', async () => {
    await expect(list.getByRole('button').first()).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search resources' }).fill('architecture');
    await expect(list.getByRole('button')).toHaveCount(1);
    await list.getByRole('button', { name: 'architecture.md' }).click();
    const preview = page.getByRole('article', { name: 'Resource architecture.md' });
    await expect(preview.locator('.markdown h1, .markdown h2').first()).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/resources.png' });
    // Its links name the documents beside it (structure.md): each opens that resource of the same server.
    await preview.getByRole('link', { name: 'Project Structure' }).first().click();
    const sibling = page.getByRole('article', { name: 'Resource structure.md' });
    await expect(sibling.locator('.markdown h1, .markdown h2').first()).toBeVisible();
    await expect(page.getByRole('dialog'), 'nothing to confirm: no address leaves Atrium').toHaveCount(0);
    await list.getByRole('button', { name: 'architecture.md' }).click();
    await expect(preview).toBeVisible();
  });

  await test.step('a resource template is filled and opened', async () => {
    await openFromTemplate(page, 'Dynamic Text Resource', '7');
    await expect(page.getByRole('article', { name: 'Resource demo://resource/dynamic/text/7' })).toContainText('Resource 7: This is a plaintext resource');
  });

  await test.step('binary contents the server says are text are shown as that text, and can be saved as a file', async () => {
    await openFromTemplate(page, 'Dynamic Blob Resource', '2');
    const preview = page.getByRole('article', { name: 'Resource demo://resource/dynamic/blob/2' });
    await expect(preview).toContainText('Resource 2: This is a base64 blob');
    await expect(preview.getByRole('link', { name: 'Save as a file' })).toBeVisible();
  });

  await test.step('a resource the server cannot read says so, with a way to try again, stops saying "Reading…", and cannot be attached', async () => {
    await openFromTemplate(page, 'Dynamic Text Resource', 'none');
    const preview = page.getByRole('article', { name: 'Resource demo://resource/dynamic/text/none' });
    await expect(preview.getByRole('alert')).toContainText('Unknown resource');
    await expect(preview.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expect(preview.getByText('Reading…')).toHaveCount(0);
    await expect(preview.getByRole('button', { name: 'Attach to next message' }), 'nothing was read to attach').toBeDisabled();
    await page.screenshot({ path: 'e2e/artifacts/resources-read-failed.png' });
  });

  await test.step('the value the server refused is corrected in the same form, still filled in, and opened again', async () => {
    const field = page.getByRole('form', { name: 'Template Dynamic Text Resource' }).getByRole('combobox', { name: 'resourceId' });
    await expect(field).toHaveValue('none');
    await field.fill('8');
    await page.getByRole('form', { name: 'Template Dynamic Text Resource' }).getByRole('button', { name: 'Open resource' }).click();
    const preview = page.getByRole('article', { name: 'Resource demo://resource/dynamic/text/8' });
    await expect(preview).toContainText('Resource 8: This is a plaintext resource');
    await expect(preview.getByRole('button', { name: 'Attach to next message' })).toBeEnabled();
  });

  await test.step('a watched resource shows the update the server sends', async () => {
    // The server sends updates (every 5 s, to what is watched) once its toggle tool is called: the model calls it.
    await sendMessage(page, 'turn on updates');
    await page.getByRole('dialog', { name: 'Run toggle-subscriber-updates?' }).getByRole('button', { name: 'Allow once' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Updates are on.');
    await page.getByRole('button', { name: 'Resources' }).click();
    await openFromTemplate(page, 'Dynamic Text Resource', '7');
    const preview = page.getByRole('article', { name: 'Resource demo://resource/dynamic/text/7' });
    await preview.getByRole('button', { name: 'Watch for changes' }).click();
    await expect(preview.getByRole('button', { name: 'Stop watching' })).toBeVisible();
    await expect(preview.getByRole('status')).toContainText('Updated by the server at');
  });

  await test.step('a resource attached to the next message reaches the model with its text', async () => {
    await page.getByRole('searchbox', { name: 'Search resources' }).fill('architecture');
    await list.getByRole('button', { name: 'architecture.md' }).click();
    await page.getByRole('article', { name: 'Resource architecture.md' }).getByRole('button', { name: 'Attach to next message' }).click();
    await expect(page.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('list', { name: 'Attached resources' })).toContainText('architecture.md');
    await expect(page.getByRole('textbox', { name: 'Message' }), 'the message is written at once').toBeFocused();
    await sendMessage(page, 'summarise the attached document');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('I read the architecture document.');
    await expect(page.getByRole('list', { name: 'Attached resources' })).toHaveCount(0);
    const sent = lastModelRequest(env().llm);
    expect(sent).toContain('Resource demo://resource/static/document/architecture.md (text/markdown)');
  });
});

test('in a short window the resources and templates scroll under the server picker and the search, which stay in reach', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 380 });
  await openApp(page, env().host, ['everything']);
  await page.getByRole('button', { name: 'Resources' }).click();
  const templates = page.getByRole('list', { name: 'Resource templates of everything' });
  await templates.getByRole('button').last().scrollIntoViewIfNeeded();
  await expect(templates.getByRole('button').last()).toBeInViewport();
  await expect(page.getByRole('searchbox', { name: 'Search resources' })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('combobox', { name: 'Server' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'e2e/artifacts/resources-short-window.png' });
});
