// MCP Apps views in the browser mode, in Debian's Chromium against a real `serveWeb` host with the app-view
// fixture server (trusted, so its views show without a click) and conversations whose history holds calls
// of its tool, each with its saved result:
//   time from a call's result on screen to its view having drawn that result, timed in the page: cold (the
//   first view of a page just opened, which also loads the view code) and warm (a view in a window that
//   already showed one, as when a model's call returns while chatting);
//   the page with 20 views: how many frames are alive at once after scrolling through all of them, and the
//   page's JS heap against the same page with 1 view (views off-screen are torn down with their row).
// Targets (issue 16): a warm view draws its result within 200 ms, a cold one within 500 ms; frames alive stay bounded (≤ 8 of 20);
// the page heap with 20 views stays under 2× the heap with 1.
//   node bench/viewsBench.ts          (needs `npm run build:renderer` and /usr/bin/chromium)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startWebHost } from './benchHost.ts';
import type { Page } from '@playwright/test';
import { openDatabase } from '../main/store/database.ts';
import { HistoryStore, historyMigrations } from '../main/store/historyStore.ts';
import { fixtureCommand } from '../e2e/servers/launch.ts';

const CALLS = 20;
const ROUNDS = 3;

/** A conversation with `calls` turns, each a show_chart call with its saved result, then a short reply. */
function seedConversation(home: string, title: string, calls: number): void {
  const db = openDatabase(join(home, 'atrium.db'), historyMigrations);
  const store = new HistoryStore(db);
  const { id } = store.createConversation({ title, providerId: 'claude', model: 'claude-bench' });
  for (let i = 0; i < calls; i++) {
    store.appendUserMessage(id, [{ type: 'text', text: `Chart ${i}, please.` }]);
    const message = store.beginAssistantMessage(id);
    const callId = `call-${title}-${i}`;
    store.finishAssistantMessage(message, { status: 'complete', content: [{ type: 'tool_use', id: callId, name: 'views__show_chart', input: { numbers: [i, i + 1] } }] });
    store.toolCalls.record({ conversationId: id, messageId: message, id: callId, serverId: 'views', tool: 'show_chart', modelName: 'views__show_chart', arguments: { numbers: [i, i + 1] }, status: 'running' });
    store.toolCalls.update(id, callId, { status: 'done', result: { content: [{ type: 'text', text: `A chart of 3 numbers.` }] }, isError: false });
    const reply = store.beginAssistantMessage(id);
    store.finishAssistantMessage(reply, { status: 'complete', content: [{ type: 'text', text: `Here is chart ${i}.` }] });
  }
  store.close();
  db.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function openConversation(page: Page, url: string, title: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('status', { name: 'Connection: Connected' }).waitFor();
  await page.getByRole('button', { name: 'Servers' }).click();
  await page.getByRole('article', { name: 'views', exact: true }).getByRole('status').filter({ hasText: 'Ready' }).waitFor();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
  await page.getByRole('button', { name: title, exact: true }).click();
}

/** The page's own JS heap (the views' frames run in processes of their own), after a collection. */
async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN) / 1024 / 1024;
}

const home = mkdtempSync(join(tmpdir(), 'atrium-views-bench-'));
seedConversation(home, 'Twenty charts', CALLS);
seedConversation(home, 'One chart', 1);
seedConversation(home, 'Another chart', 1);
const host = await startWebHost(home, { views: { ...fixtureCommand('appViewServer'), trusted: true } });
const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

const paints = { cold: [] as number[], warm: [] as number[] };

// Timed in the page, not by polling from here: when a call's result is on screen, and when its view, having
// drawn the result, says its size (the fixture view does so right after drawing). Reset before each view.
const timeViews = `
  window.viewTimes = {};
  new MutationObserver(() => {
    const times = window.viewTimes;
    if (times.result === undefined && document.querySelector('[aria-label="Result of show_chart"]')) times.result = performance.now();
    const frame = document.querySelector('iframe[title="View of views/show_chart"]');
    if (times.result !== undefined && times.view === undefined && frame && frame.style.height && frame.style.height !== '160px') times.view = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['style'] });
`;

async function timeOneView(page: Page): Promise<number> {
  await page.frameLocator('iframe[title="View of views/show_chart"]').last().frameLocator('iframe[title="View"]').getByText('Result: A chart of 3 numbers.').waitFor();
  await page.waitForFunction('window.viewTimes.view !== undefined');
  return (await page.evaluate('window.viewTimes.view - window.viewTimes.result')) as number;
}
const alive: number[] = [];
const heaps = { one: [] as number[], twenty: [] as number[] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();

    await page.addInitScript(timeViews);
    await openConversation(page, host.url, 'One chart');
    paints.cold.push(await timeOneView(page));
    heaps.one.push(await heapMb(page));
    // Another conversation with a view, in the same window: the view code is loaded, as while chatting.
    await page.evaluate('window.viewTimes = {}');
    await page.getByRole('button', { name: 'Another chart', exact: true }).click();
    paints.warm.push(await timeOneView(page));

    await page.getByRole('button', { name: 'Twenty charts', exact: true }).click();
    await page.getByText(`Here is chart ${CALLS - 1}.`).waitFor();
    // Scroll from the end to the top and back, so that every view has been shown once.
    const scroller = page.locator('.conversation-scroll');
    for (const to of ['top', 'bottom'] as const) {
      for (let step = 0; step < 40; step++) {
        await scroller.evaluate((element, direction) => {
          const box = element as unknown as { scrollTop: number; clientHeight: number; scrollHeight: number };
          box.scrollTop = direction === 'top' ? Math.max(0, box.scrollTop - box.clientHeight) : Math.min(box.scrollHeight, box.scrollTop + box.clientHeight);
        }, to);
        // Two frames: the list lays the rows out, then the views' frames are in the page.
        await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      }
    }
    await page.frameLocator('iframe[title="View of views/show_chart"]').last().frameLocator('iframe[title="View"]').getByText('Result: A chart of 3 numbers.').waitFor();
    alive.push(await page.locator('iframe[title="View of views/show_chart"]').count());
    heaps.twenty.push(await heapMb(page));
    await context.close();
  }
} finally {
  await browser.close();
  host.stop();
  rmSync(home, { recursive: true, force: true });
}

const cold = median(paints.cold);
const warm = median(paints.warm);
const frames = Math.max(...alive);
const ratio = median(heaps.twenty) / median(heaps.one);
console.log(`a view drawing its result, after the result is on screen: warm ${warm.toFixed(0)} ms (${paints.warm.map((p) => p.toFixed(0)).join(', ')}), cold ${cold.toFixed(0)} ms (${paints.cold.map((p) => p.toFixed(0)).join(', ')}; the view code loads too)`);
console.log(`frames alive after scrolling through ${CALLS} views: at most ${frames} (${alive.join(', ')})`);
console.log(`page JS heap: 1 view ${median(heaps.one).toFixed(1)} MB, ${CALLS} views ${median(heaps.twenty).toFixed(1)} MB: ${ratio.toFixed(2)}×`);
console.log(
  `targets: warm view < 200 ms ${warm < 200 ? 'met' : 'MISSED'}; cold view < 500 ms ${cold < 500 ? 'met' : 'MISSED'}; frames alive ≤ 8 of ${CALLS} ${frames <= 8 ? 'met' : 'MISSED'}; heap with ${CALLS} views < 2× heap with 1 ${ratio < 2 ? 'met' : 'MISSED'}`,
);
