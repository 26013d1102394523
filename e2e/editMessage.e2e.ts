// Edit on the person's last message, as chat apps have it: its words go back to the box, the box says it
// holds an edit (Escape or "Cancel the edit" gives it up), and Send puts the new words in the old ones'
// place: the model reads only them, and the old message and its reply stay, folded, for the person.
// (An earlier message's Edit copies it to the box to send again: chat.e2e.ts.)
import { chatHostFor, lastModelRequest, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';

const env = chatHostFor([{ text: 'Paris has about two million people.' }, { text: 'Lyon has about half a million.' }], {});

test('Edit on the last message replaces it and its reply; Escape gives the edit up', async ({ page }) => {
  await openApp(page, env().host, []);
  await sendMessage(page, 'how many people live in Paris?');
  await expect(page.getByRole('listitem', { name: 'Assistant', exact: true }).last()).toContainText('two million');
  const mine = page.getByRole('listitem', { name: 'You', exact: true });
  const box = page.getByRole('textbox', { name: 'Message' });
  const editing = page.getByRole('status').filter({ hasText: 'Editing your last message' });

  await mine.getByRole('button', { name: 'Edit your last message' }).click();
  await expect(box).toHaveValue('how many people live in Paris?');
  await expect(box).toBeFocused();
  await expect(editing).toBeVisible();
  await box.press('Escape');
  await expect(editing, 'Escape gives the edit up').toHaveCount(0);
  await expect(box).toHaveValue('');

  await mine.getByRole('button', { name: 'Edit your last message' }).click();
  await box.fill('how many people live in Lyon?');
  await page.screenshot({ path: 'e2e/artifacts/chat-editing-last-message.png' });
  // A reload mid-edit (or the window closed and opened again) keeps the words as an edit, not as a new message.
  await page.reload();
  await expect(editing, 'the edit survives a reload').toBeVisible();
  await expect(box).toHaveValue('how many people live in Lyon?');
  await box.press('Enter');
  await expect(page.getByRole('listitem', { name: 'Assistant', exact: true }).last()).toContainText('half a million');
  await expect(editing).toHaveCount(0);
  expect(lastModelRequest(env().llm), 'the model reads the edited words only').not.toContain('Paris');
  await expect(mine, 'one message of yours stands: the edited one').toHaveText(/Lyon/);
  await expect(page.getByRole('listitem', { name: 'You (before your edit)' })).toContainText('Your message before you edited it');
  await expect(page.getByRole('listitem', { name: 'Assistant (replaced by your edit)' })).toContainText('An earlier reply, replaced by your edit');
  await expect(page.getByRole('heading', { name: 'how many people live in Lyon?' }), 'titled after its first message, the conversation takes the edit’s words').toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/chat-edited-last-message.png' });
});
