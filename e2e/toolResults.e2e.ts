// Every kind of tool result rendered for what it is, from the real server-everything: an image, links to
// resources that open in the resources view, an embedded resource (text, or bytes said to be text), structured content as a tree beside
// whether it matched the tool's output schema, audio with a player, and a call that never reached the
// server shown apart from a tool that reports a failure, and one the model named that no server offers. A fixture server whose content breaks its own
// output schema shows as a failed call that says so.
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const require = createRequire(import.meta.url);
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

const env = chatHostFor(
  [
    {
      toolCalls: [
        { id: 'call_image', name: 'everything__get-tiny-image', input: {} },
        { id: 'call_links', name: 'everything__get-resource-links', input: { count: 2 } },
        { id: 'call_embedded', name: 'everything__get-resource-reference', input: { resourceType: 'Text', resourceId: 3 } },
        { id: 'call_embedded_blob', name: 'everything__get-resource-reference', input: { resourceType: 'Blob', resourceId: 4 } },
        { id: 'call_structured', name: 'everything__get-structured-content', input: { location: 'Chicago' } },
        { id: 'call_invalid', name: 'everything__get-structured-content', input: { location: 'Paris' } },
      ],
    },
    { text: 'Here they are.' },
    {
      toolCalls: [
        { id: 'call_wrong', name: 'weather__wrong_forecast', input: { city: 'Lisbon' } },
        { id: 'call_plain', name: 'weather__plain_forecast', input: { city: 'Lisbon' } },
        { id: 'call_spoken', name: 'weather__spoken_forecast', input: { city: 'Lisbon' } },
        // No server offers it (one removed, or a name the model made up): it runs nowhere.
        { id: 'call_unoffered', name: 'calendar__add_event', input: { title: 'Lisbon trip' } },
      ],
    },
    { text: 'Checked the weather.' },
  ],
  { everything: { command: process.execPath, args: [everythingServer, 'stdio'] }, weather: fixtureCommand('structuredWeatherServer') },
);

/** The servers are not trusted: a call no answer covers asks, each answered here in turn. */
async function allowEachOnce(page: Page, tools: readonly string[]): Promise<void> {
  for (const tool of tools) await page.getByRole('dialog', { name: `Run ${tool}?` }).getByRole('button', { name: 'Allow once' }).click();
}

test('spec 003 (tool results): image, audio, resource links, embedded resource, structured tree with its schema check, and failed calls', async ({ page }) => {
  await openApp(page, env().host, ['everything', 'weather']);
  await sendMessage(page, 'show me every kind of result');
  const first = page.getByRole('dialog', { name: 'Run get-tiny-image?' });
  await first.getByRole('radio', { name: /Every tool of this server/ }).check();
  // Its tools declare they only read and stay on this computer: the answer holds after their results.
  await first.getByRole('button', { name: 'Allow in this conversation' }).click();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here they are.');

  await test.step('an image is shown as an image', async () => {
    await expect(page.getByRole('img', { name: 'Image returned by get-tiny-image' })).toBeVisible();
  });

  await test.step('an embedded resource shows its text; structured content is a tree', async () => {
    const embedded = page.getByRole('article', { name: 'Tool call everything/get-resource-reference' });
    await expect(embedded.first()).toContainText('Resource 3');
    // Sent as base64 bytes the server says are text/plain: shown as that text, not as a count of bytes.
    await expect(embedded.nth(1)).toContainText('Resource 4: This is a base64 blob');
    const structured = page.getByRole('article', { name: 'Tool call everything/get-structured-content' }).first();
    await expect(structured.getByText('Structured content')).toBeVisible();
    await structured.getByText('Structured content').click();
    await expect(structured.locator('.json-key', { hasText: 'temperature' })).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/chat-tool-results.png' });
  });

  await test.step('arguments that break the schema never reach the server, and say why', async () => {
    const invalid = page.getByRole('article', { name: 'Tool call everything/get-structured-content' }).last();
    await expect(invalid.getByRole('alert')).toContainText('The call failed');
    await expect(invalid.getByRole('alert')).toContainText('location');
  });

  await test.step('structured content says it matched the tool’s output schema, which can be opened', async () => {
    const structured = page.getByRole('article', { name: 'Tool call everything/get-structured-content' }).first();
    await expect(structured.getByText("✓ Matches the tool's output schema.")).toBeVisible();
    await expect(structured.getByText('Temperature in celsius'), 'the schema is folded until asked for').toHaveCount(0);
    await structured.getByText('Output schema', { exact: true }).click();
    await expect(structured.getByText('Temperature in celsius')).toBeVisible();
  });

  await test.step('content that breaks its tool’s output schema is a failed call saying so; a tool without one says so', async () => {
    await sendMessage(page, 'check the weather');
    await allowEachOnce(page, ['wrong_forecast', 'plain_forecast', 'spoken_forecast']);
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Checked the weather.');
    const broken = page.getByRole('article', { name: 'Tool call weather/wrong_forecast' });
    await expect(broken.getByRole('status')).toContainText('Failed');
    await expect(broken.getByRole('alert')).toContainText('The call failed');
    // The card is titled weather / wrong_forecast: its error does not begin with the server's name again.
    await expect(broken.getByRole('alert')).toContainText(/^The call failed: structuredContent of tool "wrong_forecast" does not match its outputSchema: .*temperature must be number/);
    const plain = page.getByRole('article', { name: 'Tool call weather/plain_forecast' });
    await expect(plain.getByText('The tool declares no output schema, so this content was not checked.')).toBeVisible();
    await expect(plain.getByText('Output schema', { exact: true })).toHaveCount(0);
    const unoffered = page.getByRole('article', { name: 'Tool call calendar__add_event' });
    await expect(unoffered.locator('header'), 'named as the model named it, with no server in front').toHaveText(/^calendar__add_eventFailed/);
    await expect(unoffered.getByRole('alert')).toContainText('the model asked for a tool it was not offered');
    await page.screenshot({ path: 'e2e/artifacts/chat-output-schema.png' });
  });

  await test.step('audio gets a player that has loaded the sound', async () => {
    const spoken = page.getByRole('article', { name: 'Tool call weather/spoken_forecast' });
    await expect(spoken).toContainText('The forecast for Lisbon, read aloud:');
    const player = spoken.getByLabel('Audio returned by spoken_forecast');
    await expect(player).toBeVisible();
    // 0.25 s: the fixture's tone, decoded by the page's own player.
    const loadedSeconds = () =>
      player.evaluate((element) => {
        const audio = element as unknown as { readyState: number; duration: number };
        return audio.readyState > 0 ? Math.round(audio.duration * 100) / 100 : -1;
      });
    await expect.poll(loadedSeconds).toBe(0.25);
  });

  await test.step('a resource link opens the resource in the resources view', async () => {
    const links = page.getByRole('article', { name: 'Tool call everything/get-resource-links' });
    const link = links.getByRole('button').filter({ hasText: 'Resource' }).first();
    await link.click();
    await expect(page.getByRole('button', { name: 'Resources' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('article', { name: /^Resource demo:\/\/resource\// })).toBeVisible();
  });
});
