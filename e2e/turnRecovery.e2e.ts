// A turn that fails ends in the window, and a conversation survives a visit to every other view: a
// wrong API key and an unreachable provider each show their sentence once, after which Send, Retry and
// Stop work without a reload; an open conversation still shows its messages after Servers, Settings,
// Roots, Resources and Get started; words not sent are still in the message box after a reload (kept by
// the host, never in the page's storage, deleted with their conversation); a model server that could not
// be reached is no longer said to be once it answers; a reload mid-reply lands on it and shows it once.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Page } from '@playwright/test';
import type { FakeLlmServer, FakeTurn } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';
import type { RunningHost } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import { sendMessage } from './fixtures/chatHost.ts';

/** A host whose default provider is a scripted fake, beside a provider nobody answers; stopped after the test. */
async function startHost(script: FakeTurn[]): Promise<{ llm: FakeLlmServer; running: RunningHost }> {
  const llm = await startFakeAnthropic(script, { models: ['claude-e2e'] });
  const running = await startHostProcess({
    mcpServers: {},
    providers: {
      providers: [
        { id: 'claude', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'claude' },
        // Nothing listens on the discard port: every request to it is refused at once.
        { id: 'offline', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKeySecret: 'claude', models: ['claude-offline'] },
      ],
      default: { provider: 'claude', model: 'claude-e2e' },
    },
    env: { ATRIUM_SECRET_CLAUDE: 'sk-ant-e2e-not-real' },
  }).catch(async (error: unknown) => {
    await llm.close();
    throw error;
  });
  hosts.push({ llm, running });
  return { llm, running };
}

const hosts: { llm: FakeLlmServer; running: RunningHost }[] = [];
test.afterEach(async () => {
  for (const { llm, running } of hosts.splice(0)) {
    await running.stop();
    await llm.close();
  }
});

/** Opens the app on the chat (a home without servers opens on Get started the first time). */
async function openChat(page: Page, running: RunningHost): Promise<void> {
  await page.goto(running.host.url);
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
}

/** What a person checks to know the turn is over: nothing is thinking, Stop is gone, Send works again. */
async function expectTurnOver(page: Page): Promise<void> {
  await expect(page.getByText('Thinking…')).toBeHidden();
  await expect(page.getByRole('listitem', { name: 'Assistant (replying)' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeHidden();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('probe');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await box.fill('');
}

test('a failed turn ends in the window: its sentence shows once, then Retry, Send and Stop work', async ({ page }) => {
  const { llm, running } = await startHost([
    { error: { status: 401, message: 'invalid x-api-key' } },
    { text: 'Retried and answered.' },
    { hang: true, text: 'I am thinking about' },
    { text: 'Answered after the stop.' },
    { text: 'Back on the working provider.' },
  ]);
  await openChat(page, running);

  await test.step('a wrong API key: the error is said once and the turn ends', async () => {
    await sendMessage(page, 'hello there');
    const failed = page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('alert');
    await expect(failed).toContainText('rejected the API key');
    await expectTurnOver(page);
    const sentence = (await failed.textContent()) ?? '';
    expect(sentence, 'the sentence ends with one full stop').not.toMatch(/\.\.\s*$/);
    const retryAfterSentence = await page
      .getByRole('listitem', { name: 'Assistant' })
      .last()
      .evaluate((row) => {
        const said = row.querySelector('[role="alert"]');
        const retry = [...row.querySelectorAll('button')].find((button) => button.textContent === 'Retry');
        // 4: DOCUMENT_POSITION_FOLLOWING (this file is type-checked without the DOM names).
        return said && retry ? (said.compareDocumentPosition(retry) & 4) !== 0 : null;
      });
    expect(retryAfterSentence, 'Retry comes after the sentence that says what went wrong').toBe(true);
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-wrong-key.png' });
  });

  await test.step('Retry answers the words again: shown once, read once by the model, the failed reply folded away', async () => {
    const retry = page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('button', { name: 'Retry' });
    await expect(retry).toBeEnabled();
    await retry.click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Retried and answered.');
    await expectTurnOver(page);
    await expect(page.getByRole('listitem', { name: 'You' }), 'the message is shown once').toHaveCount(1);
    const retried = llm.requests.filter((r) => r.method === 'POST').at(-1)?.body as { messages: unknown[] };
    expect(JSON.stringify(retried.messages).split('hello there').length - 1, 'the model reads the message once').toBe(1);
    const replaced = page.getByRole('listitem', { name: 'Assistant (replaced by Retry)' });
    await expect(replaced).toContainText('A reply that failed, replaced by Retry');
    await expect(replaced.getByRole('alert'), 'a failure Retry answered is no longer an alert').toHaveCount(0);
    await replaced.getByText('A reply that failed, replaced by Retry').click();
    await expect(replaced, 'opened, it says why it failed').toContainText('rejected the API key');
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-retried.png' });
  });

  await test.step('Stop ends a reply that hangs, and the next message is answered', async () => {
    await sendMessage(page, 'think hard');
    await expect(page.getByRole('listitem', { name: 'Assistant (replying)' })).toContainText('I am thinking about');
    // The running turn is this conversation's only: another one can be written in meanwhile.
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('something else');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
    await page.getByRole('textbox', { name: 'Message' }).fill('');
    await page.getByRole('button', { name: 'hello there', exact: true }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant (replying)' })).toContainText('I am thinking about');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(page.getByText('Stopped before it finished')).toBeVisible();
    await expectTurnOver(page);
    await sendMessage(page, 'try again');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Answered after the stop.');
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-stopped.png' });
  });

  await test.step('an unreachable provider: the error is said once, the turn ends, another model answers', async () => {
    const picker = page.getByRole('combobox', { name: 'Model' });
    await picker.selectOption({ label: 'claude-offline' });
    await sendMessage(page, 'anyone there?');
    const failed = page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('alert');
    await expect(failed).toContainText('cannot reach http://127.0.0.1:9');
    await expectTurnOver(page);
    expect((await failed.textContent()) ?? '').not.toMatch(/\.\.\s*$/);
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-unreachable.png' });
    await picker.selectOption({ label: 'claude-e2e' });
    await sendMessage(page, 'and now?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Back on the working provider.');
    await expectTurnOver(page);
  });
});

test('an open conversation still shows its messages after a visit to every other view', async ({ page }) => {
  const { running } = await startHost([{ text: 'Nice to meet you.' }, { text: 'Here is the second answer.' }]);
  await openChat(page, running);
  await sendMessage(page, 'hello there');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Nice to meet you.');
  await sendMessage(page, 'and a second question');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is the second answer.');
  // A fresh tab opens the conversation from the list, as a person coming back would.
  await page.reload();
  await page.getByRole('button', { name: 'hello there', exact: true }).click();
  await expect(page.getByRole('listitem', { name: 'You' }).first()).toContainText('hello there');
  for (const view of ['Servers', 'Settings', 'Roots', 'Resources', 'Get started']) {
    await test.step(`${view} and back`, async () => {
      await page.getByRole('button', { name: view, exact: true }).click();
      await expect(page.getByRole('button', { name: view, exact: true })).toHaveAttribute('aria-current', 'page');
      await page.getByRole('button', { name: 'Chat', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'hello there' })).toBeVisible();
      await expect(page.getByRole('listitem', { name: 'You' }).first()).toContainText('hello there');
      await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is the second answer.');
      await page.screenshot({ path: `e2e/artifacts/turn-recovery-back-from-${view.toLowerCase().replace(' ', '-')}.png` });
    });
  }

  await test.step('words being written wait in their conversation while another view or conversation is shown', async () => {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('a third question, half written');
    await page.getByRole('button', { name: 'Resources', exact: true }).click();
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(box).toHaveValue('a third question, half written');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect(box, 'a new conversation starts with an empty box').toHaveValue('');
    await page.getByRole('button', { name: 'hello there', exact: true }).click();
    await expect(box).toHaveValue('a third question, half written');
  });
});

test('a turn that ends while the link to Atrium is down has ended when the link comes back', async ({ page, context }) => {
  const hold = holdStream('The first half,');
  const { running } = await startHost([{ text: 'The first half, and the second half.', hold }]);
  // The page's link to the host goes through this route, so the test can cut it and let it come back.
  let linkUp = true;
  const links: { close(): Promise<void> }[] = [];
  await page.routeWebSocket(/./, (ws) => {
    if (!linkUp) return void ws.close();
    ws.connectToServer();
    links.push(ws);
  });
  await openChat(page, running);
  await sendMessage(page, 'tell me both halves');
  await expect(page.getByRole('listitem', { name: 'Assistant (replying)' })).toContainText('The first half,');

  linkUp = false;
  for (const link of links.splice(0)) await link.close();
  await expect(page.getByRole('status', { name: 'Connection: Reconnecting' })).toBeVisible();
  // The reply finishes while this window hears nothing; another tab sees it end.
  hold.release();
  const other = await context.newPage();
  await openChat(other, running);
  await other.getByRole('button', { name: 'tell me both halves', exact: true }).click();
  await expect(other.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('and the second half.');
  await expect(other.getByRole('listitem', { name: 'Assistant (replying)' })).toHaveCount(0);
  await other.close();

  linkUp = true;
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('and the second half.');
  await expectTurnOver(page);
  await page.screenshot({ path: 'e2e/artifacts/turn-recovery-link-back.png' });
});

test('Retry goes to the model the picker shows, and one that cannot start says why under the message box, in its own conversation', async ({ page }) => {
  const { running } = await startHost([{ text: 'Retried on the model shown.' }]);
  await openChat(page, running);
  const picker = page.getByRole('combobox', { name: 'Model' });
  await picker.selectOption({ label: 'claude-offline' });
  await sendMessage(page, 'anyone there?');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('alert')).toContainText('cannot reach http://127.0.0.1:9');
  await expectTurnOver(page);

  await test.step('the picked provider is removed: the picker and Retry both move to the default', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Remove offline' }).click();
    const question = page.getByRole('group', { name: 'Remove offline?' });
    await expect(question.getByRole('button', { name: 'Keep offline' }), 'the safe answer has the focus').toBeFocused();
    await question.getByRole('button', { name: 'Keep offline' }).click();
    await expect(page.getByRole('button', { name: 'Remove offline' }), 'kept: the keyboard is back on Remove').toBeFocused();
    await page.getByRole('button', { name: 'Remove offline' }).click();
    await question.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Remove offline' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(picker.locator('option:checked')).toHaveText('claude-e2e');
    await page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Retried on the model shown.');
    await expectTurnOver(page);
  });

  await test.step('with no provider left, Retry says why under the message box, and only in this conversation', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Remove claude' }).click();
    await page.getByRole('group', { name: 'Remove claude?' }).getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Remove claude' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('button', { name: 'Retry' }).click();
    const composerError = page.locator('form').getByRole('alert');
    await expect(composerError, 'the failed Retry is explained where a failed send is').toBeVisible();
    await expect(composerError).toContainText('Settings');
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-retry-refused.png' });
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect(page.locator('form').getByRole('alert'), "another conversation does not show this one's error").toHaveCount(0);
    await page.getByRole('button', { name: 'anyone there?', exact: true }).click();
    await expect(page.locator('form').getByRole('alert')).toContainText('Settings');
  });
});

test('words not sent stay in the message box after a reload: typed and left, or kept by a send that failed', async ({ page }) => {
  const running = await startHostProcess({ mcpServers: {} });
  try {
    await openChat(page, running);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('A long question I took a while to write');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.locator('form').getByRole('alert'), 'the send fails: no provider yet').toContainText('Settings');
    await expect(box).toHaveValue('A long question I took a while to write');

    await page.reload();
    await openChat(page, running);
    await expect(box, 'the words are still there after a reload').toHaveValue('A long question I took a while to write');
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-draft-after-reload.png' });

    await box.fill('');
    await page.reload();
    await openChat(page, running);
    await expect(box, 'a box emptied on purpose stays empty').toHaveValue('');
  } finally {
    await running.stop();
  }
});

test('"cannot reach" above the conversation goes once the model server is back and answers', async ({ page }) => {
  // The model server's address is taken, then it goes away: the window opens while nothing answers there.
  const away = await startFakeAnthropic([]);
  const port = Number(new URL(away.url).port);
  await away.close();
  const running = await startHostProcess({
    mcpServers: {},
    // As a local model server added in Settings is: no default model, its models listed by the server.
    providers: { providers: [{ id: 'local', kind: 'anthropic', baseUrl: away.url, apiKeySecret: 'local' }] },
    env: { ATRIUM_SECRET_LOCAL: 'sk-ant-e2e-not-real' },
  });
  let back: FakeLlmServer | undefined;
  try {
    await openChat(page, running);
    const header = page.locator('.conversation-head').getByRole('status');
    await expect(header).toContainText('No model to use');
    await expect(header).toContainText(`cannot reach ${away.url}`);
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-model-away.png' });

    back = await startFakeAnthropic([{ text: 'I am back.' }], { models: ['local-model'], port });
    await sendMessage(page, 'are you there now?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('I am back.');
    await expect(page.getByText('No model to use'), 'the answer proves the model is reachable').toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Model' }).locator('option:checked')).toHaveText('local-model');
    await page.screenshot({ path: 'e2e/artifacts/turn-recovery-model-back.png' });
  } finally {
    await running.stop();
    await back?.close();
  }
});

test('a reload while a reply streams lands on that conversation and shows the reply once, as it goes on', async ({ page }) => {
  const hold = holdStream('The first half,');
  const { running } = await startHost([{ text: 'An earlier answer.' }, { text: 'The first half, and the second half.', hold }]);
  await openChat(page, running);
  await sendMessage(page, 'an earlier question');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('An earlier answer.');
  await page.getByRole('button', { name: 'New conversation' }).click();
  await sendMessage(page, 'tell me both halves');
  await expect(page.getByRole('listitem', { name: 'Assistant (replying)' })).toContainText('The first half,');

  await page.reload();
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'tell me both halves' }), 'the window opens on the conversation being answered').toBeVisible();
  const replying = page.getByRole('listitem', { name: 'Assistant (replying)' });
  await expect(replying).toContainText('The first half,');
  await expect(page.getByText('The first half,'), 'the reply so far is shown once').toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Stop', exact: true }), 'the turn still runs, and can be stopped').toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' }), 'nothing offers to retry a reply still coming').toHaveCount(0);
  await page.screenshot({ path: 'e2e/artifacts/turn-recovery-reload-mid-reply.png' });

  hold.release();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The first half, and the second half.');
  await expectTurnOver(page);
  await expect(page.getByRole('listitem', { name: /^Assistant/ }), 'one reply, whole').toHaveCount(1);
  await expect(page.getByText('The first half,')).toHaveCount(1);
});

test('unsent words — a secret included — are kept by Atrium, never in the page’s storage, and go with their conversation', async ({ page }) => {
  const { running } = await startHost([{ text: 'Hello.' }]);
  /** Everything this origin keeps in the browser, where another page later served on the same port could read it. */
  const originStorage = () => page.evaluate(() => JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)]));
  const keptByAtrium = () => {
    const db = new DatabaseSync(join(running.host.home, 'atrium.db'), { readOnly: true });
    try {
      return (db.prepare('SELECT text FROM drafts').all() as { text: string }[]).map((row) => row.text);
    } finally {
      db.close();
    }
  };
  const box = page.getByRole('textbox', { name: 'Message' });

  await test.step('a draft an older Atrium left in the page’s storage is handed to Atrium and cleared there', async () => {
    await openChat(page, running);
    await page.evaluate(() => localStorage.setItem('atrium.drafts', JSON.stringify({ new: 'typed before the update' })));
    await page.reload();
    await openChat(page, running);
    await expect(box).toHaveValue('typed before the update');
    await expect.poll(originStorage).not.toContain('typed before the update');
    await expect.poll(keptByAtrium).toEqual(['typed before the update']);
  });

  await test.step('a secret typed and not sent is in the box after a reload, and only Atrium has it', async () => {
    await sendMessage(page, 'hello there');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Hello.');
    await box.fill('my key is sk-ant-do-not-keep-me');
    await expect.poll(keptByAtrium).toEqual(['my key is sk-ant-do-not-keep-me']);
    await page.reload();
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: 'hello there', exact: true }).click();
    await expect(box).toHaveValue('my key is sk-ant-do-not-keep-me');
    expect(await originStorage(), 'nothing typed is in the page’s storage').not.toContain('sk-ant-do-not-keep-me');
  });

  await test.step('deleting the conversation deletes its draft', async () => {
    await page.getByRole('button', { name: 'Delete hello there' }).click();
    await page.getByRole('group', { name: 'Delete hello there?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByRole('button', { name: 'hello there', exact: true })).toHaveCount(0);
    await expect.poll(keptByAtrium).toEqual([]);
    expect(await originStorage()).not.toContain('sk-ant-do-not-keep-me');
  });
});
