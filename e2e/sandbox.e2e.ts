// Every local server starts in its sandbox, and the person sees it: a real host runs a server that reads
// a file the sandbox hides as it starts; its card says it is sandboxed and what it can touch, lists the
// blocked read, and "Allow for this server" adds that file to its sandbox in servers.json and starts it
// again, the read now allowed. A write refused in the middle of a chat is said under the tool call that
// failed, with the same button there.
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import { E2E_MODEL, openApp, sendMessage } from './fixtures/chatHost.ts';
import { startHostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

test.skip(process.platform !== 'linux', 'the sandbox this journey checks is bubblewrap (Linux)');

test('a sandboxed server’s card says so, lists what the sandbox blocked, and allows it for this server on a click', async ({ page }) => {
  const elsewhere = await mkdtemp(join(tmpdir(), 'atrium-e2e-elsewhere-'));
  const settings = join(elsewhere, 'settings.txt');
  await writeFile(settings, 'the server’s settings');
  const running = await startHostProcess({ mcpServers: { snoop: { ...fixtureCommand('snoopingServer'), env: { SNOOP_READ_AT_START: settings } } } });
  try {
    await page.goto(running.host.url);
    await page.getByRole('button', { name: 'Servers' }).click();
    const card = page.getByRole('article', { name: 'snoop', exact: true });
    await expect(card.getByRole('status')).toHaveText('Ready');
    const sandbox = card.getByRole('region', { name: "snoop's sandbox" });
    await expect(sandbox).toContainText('Sandboxed It reaches only what is listed.');

    await test.step('what it can touch is one click away', async () => {
      await sandbox.getByText('Sandboxed', { exact: true }).click();
      await expect(sandbox.getByRole('list', { name: 'What snoop can touch' })).toContainText('Network: none.');
    });

    await test.step('the blocked read is listed with the file, and allowed on the person’s click only', async () => {
      const blocked = sandbox.getByRole('list', { name: 'What the sandbox blocked for snoop' });
      await expect(blocked).toContainText(`Read ${settings}`);
      await page.screenshot({ path: 'e2e/artifacts/sandbox-blocked.png' });
      const before = JSON.parse(await readFile(join(running.host.home, 'servers.json'), 'utf8')) as { mcpServers: { snoop: { sandbox?: unknown } } };
      expect(before.mcpServers.snoop.sandbox, 'nothing is allowed before the click').toBeUndefined();
      await blocked.getByRole('button', { name: `Allow reading ${settings} for snoop` }).click();
      await expect(blocked).toHaveCount(0);
      await expect(card.getByRole('status')).toHaveText('Ready');
      const after = JSON.parse(await readFile(join(running.host.home, 'servers.json'), 'utf8')) as { mcpServers: { snoop: { sandbox?: unknown } } };
      expect(after.mcpServers.snoop.sandbox).toEqual({ filesystem: { allowRead: [settings] } });
    });
  } finally {
    await running.stop();
    await rm(elsewhere, { recursive: true, force: true });
  }
});

test('a write its sandbox refused during a chat is said under the failed call, and allowed there on a click', async ({ page }) => {
  // Given to server-filesystem as its argument (its README's way): read in the sandbox, not written. Outside
  // the shared /tmp and the host's home folder, as a project folder of the person's is.
  const folder = await realpath(await mkdtemp(join(homedir(), '.atrium-e2e-argument-')));
  const target = join(folder, 'todo.md');
  const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'notes__write_file', input: { path: target, content: 'buy milk' } }] }, { text: 'The sandbox stopped that write.' }]);
  const serverFilesystem = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url));
  const running = await startHostProcess({
    mcpServers: { notes: { command: process.execPath, args: [serverFilesystem, folder], trusted: true } },
    providers: { providers: [{ id: 'claude', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'claude' }], default: { provider: 'claude', model: E2E_MODEL } },
    env: { ATRIUM_SECRET_CLAUDE: 'sk-ant-e2e-not-real' },
  });
  try {
    await openApp(page, running.host, ['notes']);
    await sendMessage(page, 'Note that I must buy milk.');
    const call = page.getByRole('article', { name: 'Tool call notes/write_file' });
    const approval = page.getByRole('dialog');
    await approval.getByRole('button', { name: 'Allow once', exact: true }).click();
    await expect(call).toContainText(`Its sandbox kept notes from writing ${target}.`);
    await page.screenshot({ path: 'e2e/artifacts/sandbox-blocked-in-chat.png' });
    await call.getByRole('button', { name: `Allow writing ${folder} for notes` }).click();
    await expect(call.getByRole('status').last()).toHaveText(/Allowed: notes starts again with .* in its sandbox\. Ask for the call again\./);
    await expect(page.getByRole('textbox', { name: 'Message' }), 'the cursor is where the call is asked for again').toBeFocused();
    const servers = JSON.parse(await readFile(join(running.host.home, 'servers.json'), 'utf8')) as { mcpServers: { notes: { sandbox?: unknown } } };
    expect(servers.mcpServers.notes.sandbox).toEqual({ filesystem: { allowWrite: [folder] } });
  } finally {
    await running.stop();
    await llm.close();
    await rm(folder, { recursive: true, force: true });
  }
});
