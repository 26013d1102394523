// The chat follows a reply to its end while the person stays at the end, even when a lot arrives at
// once (a tool's result after a form was answered, a long paragraph), and stops following when they
// scroll up to read.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const earlier = Array.from({ length: 30 }, (_, n) => `Earlier line ${n + 1}.`).join('\n\n');
const longReply = `${Array.from({ length: 40 }, (_, n) => `Reply line ${n + 1}.`).join('\n\n')}\n\nThe very end of the reply.`;

const env = chatHostFor(
  [
    { text: earlier },
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Your name, please', form: 'profile' } }] },
    { text: longReply },
  ],
  { echo: fixtureCommand('echoServer') },
);

test('after a form is answered, the chat follows the reply to its very end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'tell me a long story');
  await expect(page.getByText('Earlier line 30.')).toBeInViewport();

  await sendMessage(page, 'ask about me');
  await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
  const form = page.getByRole('dialog', { name: 'Information requested' });
  await form.getByRole('textbox', { name: 'Your name' }).fill('Ada');
  await form.getByRole('textbox', { name: 'Home page' }).fill('https://ada.example.com');
  await form.getByRole('spinbutton', { name: 'Age' }).fill('36');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(form).toBeHidden();

  const end = page.getByText('The very end of the reply.');
  await expect(end).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Assistant (replying)' }), 'the turn has ended').toHaveCount(0);
  await expect(end, 'the last line of the reply is on screen, not below it').toBeInViewport();
  await page.screenshot({ path: 'e2e/artifacts/follow-after-form.png' });
});

const tallResult = Array.from({ length: 60 }, (_, n) => `Result line ${n + 1}`).join('\n');
const tallEnv = chatHostFor(
  [
    { text: earlier },
    { toolCalls: [{ name: 'echo__echo', input: { text: tallResult } }] },
    { text: 'Done with the echo.' },
  ],
  { echo: fixtureCommand('echoServer') },
);

test('a tall tool result arriving at once is followed to the end of the reply after it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page, tallEnv().host, ['echo']);
  await sendMessage(page, 'tell me a long story');
  await expect(page.getByText('Earlier line 30.')).toBeInViewport();
  await sendMessage(page, 'echo a lot');
  await page.getByRole('dialog', { name: 'Run echo?' }).getByRole('button', { name: 'Allow once' }).click();
  const end = page.getByText('Done with the echo.');
  await expect(end).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Assistant (replying)' }), 'the turn has ended').toHaveCount(0);
  await expect(end, 'the end of the reply is on screen, not below it').toBeInViewport();
  await page.screenshot({ path: 'e2e/artifacts/follow-after-tall-result.png' });
});

const hold = holdStream('Reply line 1.');
const readingEnv = chatHostFor([{ text: earlier }, { text: longReply, hold }], { echo: fixtureCommand('echoServer') });

test('a person who scrolls up to read while a reply streams is left where they are', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page, readingEnv().host, ['echo']);
  await sendMessage(page, 'tell me a long story');
  await expect(page.getByText('Earlier line 30.')).toBeInViewport();
  await sendMessage(page, 'and another');
  await expect(page.getByText('Reply line 1.')).toBeVisible();
  await page.locator('.conversation-scroll').hover();
  await page.mouse.wheel(0, -250);
  const reading = page.getByText('Earlier line 20.', { exact: true });
  await expect(reading).toBeInViewport();
  hold.release();
  await expect(page.getByRole('listitem', { name: 'Assistant (replying)' }), 'the turn has ended').toHaveCount(0);
  await expect(reading, 'what the person was reading stays on screen').toBeInViewport();
  await expect(page.getByText('The very end of the reply.')).not.toBeInViewport();
});

const linkReply = 'See [the docs](https://example.com/docs).';
const endingHold = holdStream(linkReply);
const endingEnv = chatHostFor([{ text: earlier }, { text: linkReply, hold: endingHold }], { echo: fixtureCommand('echoServer') });

test('a reply that ends does not move under the pointer: its link stays where it was while it streamed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page, endingEnv().host, ['echo']);
  await sendMessage(page, 'tell me a long story');
  await expect(page.getByText('Earlier line 30.')).toBeInViewport();
  await sendMessage(page, 'where are the docs?');
  const replying = page.getByRole('listitem', { name: 'Assistant (replying)' });
  const link = replying.getByRole('link', { name: 'the docs' });
  await expect(link, 'the whole reply is shown while its turn still runs').toBeVisible();
  const whileStreaming = { row: await replying.boundingBox(), link: await link.boundingBox() };

  endingHold.release();
  const ended = page.getByRole('listitem', { name: 'Assistant', exact: true }).last();
  await expect(ended.getByRole('button', { name: 'Retry' }), 'the turn has ended: its reply offers Retry').toBeVisible();
  // The chat follows a reply that grows in the frames after it grew; two frames later it would have moved.
  await page.evaluate(() => {
    const { requestAnimationFrame: nextFrame } = globalThis as unknown as { requestAnimationFrame(run: () => void): number };
    return new Promise<void>((done) => nextFrame(() => nextFrame(done)));
  });
  const once = { row: await ended.boundingBox(), link: await ended.getByRole('link', { name: 'the docs' }).boundingBox() };
  expect(once.row?.height, 'the reply is as tall ended as it was while it streamed (the room of Retry was kept)').toBe(whileStreaming.row?.height);
  expect(once.link?.y, 'the link is where the person saw it').toBe(whileStreaming.link?.y);
});
