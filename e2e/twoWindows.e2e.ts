// Two windows on one host (two browser tabs at the same address), each starting a conversation at the
// same moment: each lands on its own, known by the id it gave it, not on whichever appeared first.
import { chatHostFor, openApp } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';

const env = chatHostFor([{ text: 'A reply.' }, { text: 'A reply.' }], {});

test('two windows that start a conversation each at the same moment each show their own', async ({ page, context }) => {
  await openApp(page, env().host, []);
  const other = await context.newPage();
  await openApp(other, env().host, []);
  const boxes = [page, other].map((window) => window.getByRole('textbox', { name: 'Message' }));
  await boxes[0]?.fill('from the first window');
  await boxes[1]?.fill('from the second window');
  await Promise.all(boxes.map((box) => box?.press('Enter')));
  for (const [window, words] of [
    [page, 'from the first window'],
    [other, 'from the second window'],
  ] as const) {
    await expect(window.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('A reply.');
    await expect(window.getByRole('heading', { name: words }), 'its own conversation is shown').toBeVisible();
    await expect(window.getByRole('listitem', { name: 'You' }), 'with its own message only').toHaveCount(1);
    await expect(window.getByRole('listitem', { name: 'You' })).toContainText(words);
  }
  await other.screenshot({ path: 'e2e/artifacts/two-windows.png' });
});
