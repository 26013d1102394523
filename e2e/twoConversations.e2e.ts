// Two conversations at once, as a person works: while one reply is still coming, a new conversation is
// started, written and sent, and answered; the list marks which reply is still coming; the first goes on
// where it was, to its end.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';

const essay = holdStream('An essay, part one.');
const env = chatHostFor([{ text: 'An essay, part one. Part two, the end.', hold: essay }, { text: 'Four.' }], {});

test('a new conversation is sent and answered while another conversation’s reply is still coming', async ({ page }) => {
  await openApp(page, env().host, []);
  await sendMessage(page, 'write me an essay');
  const reply = page.getByRole('listitem', { name: /^Assistant/ }).last();
  await expect(reply).toContainText('An essay, part one.');

  const list = page.getByRole('navigation', { name: 'Conversations' });
  const essayRow = list.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'write me an essay', exact: true }) });
  await expect(essayRow.getByRole('img', { name: 'Replying' }), 'the list says which reply is still coming').toBeVisible();
  await page.keyboard.press('Control+Shift+O');
  await expect(page.getByRole('heading', { name: 'New conversation' })).toBeVisible();
  await sendMessage(page, 'quick: what is 2+2?');
  await expect(page.getByRole('textbox', { name: 'Message' }), 'sent, not held back by the other reply').toHaveValue('');
  await expect(page.getByRole('heading', { name: 'quick: what is 2+2?' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Four.');
  const quickRow = list.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'quick: what is 2+2?', exact: true }) });
  await expect(quickRow.getByRole('img', { name: 'Replying' }), 'answered: no longer marked').toHaveCount(0);
  await expect(essayRow.getByRole('img', { name: 'Replying' })).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/two-conversations.png' });

  essay.release();
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'write me an essay', exact: true }).click();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Part two, the end.');
  await expect(essayRow.getByRole('img', { name: 'Replying' })).toHaveCount(0);
});
