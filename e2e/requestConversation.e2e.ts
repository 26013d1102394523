// A server's request that comes while another conversation is on screen (the person moved on while the
// model was still writing its call, or a second window shows another one) says which conversation it is
// for, and opens it behind the dialog on request; on its own conversation the dialog says nothing more.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const hold = holdStream('{"text":"hel');
const env = chatHostFor(
  [{ toolCalls: [{ name: 'echo__echo', input: { text: 'hello' } }], hold }, { text: 'Echoed hello.' }, { toolCalls: [{ name: 'echo__echo', input: { text: 'again' } }] }, { text: 'Echoed again.' }],
  { echo: fixtureCommand('echoServer') },
);

test('an approval asked while another conversation is on screen names its own, and shows it on request', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'say hello back');
  await expect(page.getByRole('button', { name: 'Stop' }), 'the reply is under way').toBeVisible();
  // The person moves on while the model is still writing its call.
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(page.getByRole('heading', { name: 'New conversation' })).toBeVisible();
  hold.release();

  const dialog = page.getByRole('dialog', { name: 'Run echo?' });
  await expect(dialog.getByText('For the conversation “say hello back”, not the one on screen.')).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/request-other-conversation.png' });
  await dialog.getByRole('button', { name: 'Show it' }).click();
  await expect(page.getByRole('heading', { name: 'say hello back' })).toBeVisible();
  await expect(dialog.getByText('not the one on screen'), 'once it is on screen the dialog no longer says so').toHaveCount(0);
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Echoed hello.');

  // On its own conversation, nothing more is said.
  await sendMessage(page, 'once more');
  await expect(page.getByRole('dialog', { name: 'Run echo?' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Run echo?' }).getByText('not the one on screen')).toHaveCount(0);
  await page.getByRole('dialog', { name: 'Run echo?' }).getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Echoed again.');
});
