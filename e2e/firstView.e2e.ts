// A first run opens on Get started, but never takes the person away from a view they already chose
// while the window was still loading.
import { expect, test } from './fixtures/hostProcess.ts';

test.use({ hostServers: {} });

test('a person who opens Chat before the first load ends stays in Chat', async ({ page, host }) => {
  // The answer to the window's first list of servers is held until the person has clicked.
  const listServersIds = new Set<unknown>();
  const held: string[] = [];
  let holding = true;
  let deliver: ((frame: string) => void) | undefined;
  await page.routeWebSocket(/./, (ws) => {
    const server = ws.connectToServer();
    deliver = (frame) => ws.send(frame);
    ws.onMessage((frame) => {
      const message = JSON.parse(String(frame)) as { id?: unknown; method?: string };
      if (message.method === 'listServers') listServersIds.add(message.id);
      server.send(frame);
    });
    server.onMessage((frame) => {
      const message = JSON.parse(String(frame)) as { id?: unknown };
      if (holding && listServersIds.has(message.id)) held.push(String(frame));
      else ws.send(frame);
    });
  });
  await page.goto(host.url);
  await expect.poll(() => held.length, { message: 'the first list of servers is held' }).toBeGreaterThan(0);
  const chat = page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true });
  await chat.click();
  holding = false;
  for (const frame of held.splice(0)) deliver?.(frame);
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Get started' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' }), 'still in Chat').toBeVisible();
  await expect(chat).toHaveAttribute('aria-current', 'page');
});

test('a first run with nothing set up opens on Get started', async ({ page, host }) => {
  await page.goto(host.url);
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Get started' })).toHaveAttribute('aria-current', 'page');
});
