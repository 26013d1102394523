// The chat as a person uses it, in Debian's Chromium against a real host process: a scripted Anthropic
// fake answers, the real echo fixture server runs the tools, and every consent dialog is answered from
// the keyboard or mouse: a tool approval, an elicitation form (with a refused answer first), a URL
// elicitation, and a sampling request with its review.
import { chatHostFor, openApp, lastModelRequest, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';


const env = chatHostFor(
  [
    // 1. a tool that needs approval
    { toolCalls: [{ name: 'echo__add', input: { a: 2, b: 3 } }] },
    { text: 'Two and three make **five**.' },
    // 2. a form elicitation
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Who are you?' } }] },
    { text: 'Nice to meet you.\n\n<img src="x" onerror="alert(1)"><b>raw html</b>\n\n```js\nconst answer = 42;\n```\n\nSee [the docs](https://example.com/docs?from=atrium).' },
    // 3. a URL elicitation
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Sign in, please', form: 'url' } }] },
    { text: 'You declined to sign in.' },
    // 4. sampling: the server's own request to the model sits between the two turns
    { toolCalls: [{ name: 'echo__sample', input: { prompt: 'Say hello to Atrium' } }] },
    { text: 'Hello, Atrium!' },
    { text: 'The server heard back.' },
    // 5. retry, then an edited message, on another model
    { text: 'Retried: the server heard back.' },
    { text: 'Edited and answered.' },
  ],
  { echo: fixtureCommand('echoServer') },
);


test('chat: a tool call approved in its dialog, a form, a URL and a sampling request answered, all inline', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  await expect(page.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');

  await test.step('a tool call waits in its dialog, with the arguments, and runs once allowed', async () => {
    await sendMessage(page, 'add 2 and 3');
    const dialog = page.getByRole('dialog', { name: 'Run add?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('echo');
    await expect(dialog.getByLabel('Arguments')).toContainText('"a": 2');
    await expect(dialog).toContainText('not trusted');
    await expect(dialog.getByRole('button', { name: 'Deny', exact: true }), 'the safe answer has the focus').toBeFocused();
    await page.screenshot({ path: 'e2e/artifacts/consent-tool-approval.png' });
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(dialog).toBeHidden();
    const call = page.getByRole('article', { name: 'Tool call echo/add' });
    await expect(call.getByRole('status')).toContainText('Done');
    await expect(call.getByLabel('Result of add').locator('pre').first()).toHaveText('5');
    await expect(call.getByText('Structured content')).toBeVisible();
    await expect(call.getByText("✓ Matches the tool's output schema.")).toBeVisible();
    const reply = page.getByRole('listitem', { name: 'Assistant' }).last();
    await expect(reply).toContainText('Two and three make five.');
    await expect(reply.locator('strong'), 'the reply is rendered as Markdown').toHaveText('five');
    await expect(page.getByRole('button', { name: 'add 2 and 3', exact: true }), 'the new conversation is listed').toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/chat-tool-call.png' });
  });

  await test.step('an elicitation form: an answer that does not fit is explained, then a good one goes back', async () => {
    await sendMessage(page, 'ask who I am');
    await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await expect(form).toContainText('Who are you?');
    await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toBeVisible();
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveAccessibleDescription('Name is required: fill it in.');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');
    await form.getByRole('checkbox', { name: 'Confirm' }).check();
    await page.screenshot({ path: 'e2e/artifacts/consent-elicitation-form.png' });
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('article', { name: 'Tool call echo/ask' }).getByLabel('Result of ask')).toContainText('"name":"Ada"');
    const reply = page.getByRole('listitem', { name: 'Assistant' }).last();
    await expect(reply).toContainText('Nice to meet you.');
    await expect(reply.locator('img'), 'raw HTML in a reply is never rendered').toHaveCount(0);
    await expect(reply.locator('b')).toHaveCount(0);
    await expect(reply.locator('code .hljs-keyword'), 'code is highlighted').toHaveText('const');
    let opened = false;
    page.context().once('page', () => (opened = true));
    await reply.getByRole('link', { name: 'the docs' }).click();
    const ask = page.getByRole('dialog', { name: 'Open this address?' });
    await expect(ask.getByLabel('Full address')).toHaveText('https://example.com/docs?from=atrium');
    await expect(ask).toContainText('It goes to example.com.');
    await expect(ask.getByRole('button', { name: 'Don’t open' }), 'the safe answer has the focus').toBeFocused();
    await page.screenshot({ path: 'e2e/artifacts/consent-link.png' });
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();
    expect(opened, 'a link the person did not confirm opens nothing').toBe(false);
  });

  await test.step('a URL elicitation shows the real domain and opens nothing when declined', async () => {
    await sendMessage(page, 'sign me in');
    await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a web page?' });
    await expect(dialog.getByLabel('Full address')).toHaveText('https://xn--exmple-cua.com/sign-in?session=42');
    await expect(dialog.locator('.consent-domain-name')).toHaveText('xn--exmple-cua.com');
    await page.screenshot({ path: 'e2e/artifacts/consent-elicitation-url.png' });
    let opened = false;
    page.context().on('page', () => (opened = true));
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('You declined to sign in.');
    await expect(page.getByRole('article', { name: 'Tool call echo/ask' }).last().getByLabel('Result of ask')).toContainText('"action":"cancel"');
    expect(opened).toBe(false);
  });

  await test.step('a sampling request is edited and approved, and its reply reviewed before it goes back', async () => {
    await sendMessage(page, 'use sampling');
    await page.getByRole('dialog', { name: 'Run sample?' }).getByRole('button', { name: 'Allow once' }).click();
    const request = page.getByRole('dialog', { name: 'Use your model for a server?' });
    await expect(request.getByRole('combobox', { name: 'Model' })).toHaveValue('claude-e2e');
    const message = request.getByRole('textbox', { name: 'User message 1' });
    await expect(message).toHaveValue('Say hello to Atrium');
    await message.fill('Say hello to Atrium, kindly');
    await page.screenshot({ path: 'e2e/artifacts/consent-sampling-request.png' });
    await request.getByRole('button', { name: 'Run it' }).click();
    const review = page.getByRole('dialog', { name: 'Send this reply to the server?' });
    await expect(review.getByRole('textbox', { name: 'Reply' })).toHaveValue('Hello, Atrium!');
    await page.screenshot({ path: 'e2e/artifacts/consent-sampling-review.png' });
    await review.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The server heard back.');
    await expect(page.getByRole('article', { name: 'Tool call echo/sample' }).getByLabel('Result of sample')).toHaveText('Hello, Atrium!');
    const sampled = env().llm.requests.filter((r) => r.method === 'POST').at(-2);
    expect(JSON.stringify(sampled?.body)).toContain('Say hello to Atrium, kindly');
  });

  await test.step('retry the last reply; edit a sent message and send it to another model', async () => {
    await page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Retried: the server heard back.');
    expect(lastModelRequest(env().llm)).toContain('use sampling');
    await page.getByRole('combobox', { name: 'Model' }).selectOption({ label: 'claude-fake-1' });
    await page.getByRole('listitem', { name: 'You' }).first().getByRole('button', { name: 'Edit and send again' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await expect(box).toHaveValue('add 2 and 3');
    await expect(box).toBeFocused();
    await box.fill('add 2 and 4');
    await box.press('Enter');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Edited and answered.');
    const edited = env().llm.requests.filter((r) => r.method === 'POST').at(-1)?.body as { model: string };
    expect(edited.model, 'the message went to the model picked for this conversation').toBe('claude-fake-1');
    expect(lastModelRequest(env().llm)).toContain('add 2 and 4');
  });
});
