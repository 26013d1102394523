// The window just opened and a server is still starting (an npx server being fetched, a slow one): the
// person asks at once. Their message is shown, the chat says the turn waits for that server, and the
// model, once asked, is offered its tools, instead of answering without them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatHostFor, lastModelRequest, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const folder = mkdtempSync(join(tmpdir(), 'atrium-e2e-starting-'));
const ready = join(folder, 'ready');
// Unsandboxed: a sandboxed server sees only what was there at its start, and the file it waits for is made later.
const env = chatHostFor([{ text: 'I can use the slow server now.' }], { slow: { ...fixtureCommand('slowStartServer', ['--until-file', ready]), sandbox: false } });
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('a message sent while a server is still starting waits for it, and says so', async ({ page }) => {
  const { host, llm } = env();
  await page.goto(host.url);
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  await sendMessage(page, 'what can you do?');

  await expect(page.getByRole('listitem', { name: 'You' }).filter({ hasText: 'what can you do?' }), 'the message is shown while the turn waits').toBeVisible();
  await expect(page.getByText('waiting for slow to start, so that the model has its tools')).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/chat-waiting-for-server.png' });
  expect(llm.requests.filter((request) => request.method === 'POST'), 'the model is not asked yet').toHaveLength(0);

  writeFileSync(ready, '');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('I can use the slow server now.');
  expect(lastModelRequest(llm), 'the model was offered the server’s tools').toContain('slow__ok');
  await expect(page.getByText('waiting for slow to start'), 'the line goes with the turn').toHaveCount(0);
});
