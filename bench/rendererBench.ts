// The browser mode as a person meets it, in Debian's Chromium against a real `serveWeb` host whose
// history holds a 5,000-message conversation:
//   first paint and interactive (the conversations list rendered and clickable) after navigation;
//   opening the long conversation (until its last message is on screen);
//   scrolling it from bottom to top, one frame per step: the longest frame and the 95th percentile;
// beside, in the same run and browser: interactive with an empty history, and a static reference page of
// the same text scrolled the same way (what the browser alone costs).
// Targets (issue 18 §6): interactive with the long conversation ≤ 1.2× an empty history; the longest scroll
// frame ≤ 1.3× the reference page's, judged by the worst round.
//   node bench/rendererBench.ts [--rounds N]   (needs `npm run build:renderer` and /usr/bin/chromium)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startWebHost } from './benchHost.ts';
import { showSpread } from './spread.ts';
import { openDatabase } from '../main/store/database.ts';
import { HistoryStore, historyMigrations } from '../main/store/historyStore.ts';

const MESSAGES = 5_000;
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 6;

function seedHistory(home: string): string {
  const db = openDatabase(join(home, 'atrium.db'), historyMigrations);
  const store = new HistoryStore(db);
  const { id } = store.createConversation({ title: 'A very long conversation', providerId: 'claude', model: 'claude-bench' });
  for (let i = 0; i < MESSAGES / 2; i++) {
    store.appendUserMessage(id, [{ type: 'text', text: `Question ${i}: how does part ${i} of the system work, and what should I check first?` }]);
    const reply = store.beginAssistantMessage(id);
    const code = i % 5 === 0 ? '\n\n```ts\nconst answer = compute(' + i + ');\nconsole.log(answer);\n```\n' : '';
    store.finishAssistantMessage(reply, {
      status: 'complete',
      content: [{ type: 'text', text: `Answer ${i}: **part ${i}** reads its input, checks it, and writes the result.${code}\n\n- first, the input\n- then, the check\n- last, the output` }],
    });
  }
  store.close();
  db.close();
  return `Answer ${MESSAGES / 2 - 1}:`;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
const median = (values: number[]) => percentile(values, 50);

const home = mkdtempSync(join(tmpdir(), 'atrium-renderer-bench-'));
const emptyHome = mkdtempSync(join(tmpdir(), 'atrium-renderer-bench-empty-'));
const lastReply = seedHistory(home);
// Both data folders list one (disabled) server, so neither counts as a first run: both open on the chat,
// whose conversations list is what "interactive" waits for. (startWebHost writes servers.json itself.)
const listedServer = { idle: { command: 'true', disabled: true } };
const host = await startWebHost(home, listedServer);
const emptyHost = await startWebHost(emptyHome, listedServer);
const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

/** A static page of the same size and text as the long conversation, scrolled the same way: what the browser alone costs. */
function referencePage(): string {
  const blocks: string[] = [];
  for (let i = 0; i < MESSAGES / 2; i++) {
    blocks.push(`<li><p>Question ${i}: how does part ${i} of the system work, and what should I check first?</p></li>`);
    const code = i % 5 === 0 ? `<pre><code>const answer = compute(${i});\nconsole.log(answer);</code></pre>` : '';
    blocks.push(`<li><p>Answer ${i}: <strong>part ${i}</strong> reads its input, checks it, and writes the result.</p>${code}<ul><li>first, the input</li><li>then, the check</li><li>last, the output</li></ul></li>`);
  }
  return `<!doctype html><html><head><style>body{margin:0;font-family:sans-serif}.conversation-scroll{height:800px;overflow:auto}li{padding:8px 20px}</style></head><body><div class="conversation-scroll"><ol>${blocks.join('')}</ol></div></body></html>`;
}

/** Frame times while scrolling `.conversation-scroll` from bottom to top, 800 px a frame. */
function scrollFrames(): Promise<number[]> {
  // This file is type-checked without DOM types; these describe the little of the page used here.
  const page = globalThis as unknown as {
    document: { querySelector(selector: string): { scrollTop: number; scrollHeight: number } | null };
    requestAnimationFrame(callback: () => void): number;
  };
  const scroller = page.document.querySelector('.conversation-scroll');
  if (!scroller) throw new Error('no conversation scroller');
  scroller.scrollTop = scroller.scrollHeight;
  return (async () => {
    const deltas: number[] = [];
    await new Promise<void>((resolve) => page.requestAnimationFrame(resolve));
    let last = performance.now();
    // Bottom to top, 800 px per frame: about 25 screens a second, far faster than a person scrolls.
    while (scroller.scrollTop > 0) {
      scroller.scrollTop = Math.max(0, scroller.scrollTop - 800);
      await new Promise<void>((resolve) => page.requestAnimationFrame(resolve));
      const now = performance.now();
      deltas.push(now - last);
      last = now;
    }
    return deltas;
  })();
}

const results = { firstPaint: [] as number[], interactive: [] as number[], interactiveEmpty: [] as number[], open: [] as number[], maxFrame: [] as number[], p95Frame: [] as number[], referenceFrame: [] as number[] };
try {
  // A fresh page each time: a first visit, with nothing cached by the renderer.
  const measureEmpty = async () => {
    const emptyContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const emptyPage = await emptyContext.newPage();
    await emptyPage.goto(emptyHost.url);
    await emptyPage.getByRole('button', { name: 'New conversation' }).waitFor();
    results.interactiveEmpty.push(await emptyPage.evaluate(() => performance.now()));
    await emptyContext.close();
  };
  const measureLong = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(host.url);
    const conversation = page.getByRole('button', { name: 'A very long conversation', exact: true });
    await conversation.waitFor();
    const timing = await page.evaluate(() => ({
      interactive: performance.now(),
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    }));
    results.firstPaint.push(timing.firstPaint);
    results.interactive.push(timing.interactive);

    const openedAt = await page.evaluate(() => performance.now());
    await conversation.click();
    await page.getByText(lastReply).waitFor();
    results.open.push((await page.evaluate(() => performance.now())) - openedAt);

    const frames = await page.evaluate(scrollFrames);
    results.maxFrame.push(Math.max(...frames));
    results.p95Frame.push(percentile(frames, 95));
    await context.close();

    const referenceContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const reference = await referenceContext.newPage();
    await reference.setContent(referencePage());
    results.referenceFrame.push(Math.max(...(await reference.evaluate(scrollFrames))));
    await referenceContext.close();
  };
  for (let round = 0; round < ROUNDS; round++) {
    // The order alternates: whichever page came second in every round would carry the browser's leftovers.
    if (round % 2 === 0) {
      await measureEmpty();
      await measureLong();
    } else {
      await measureLong();
      await measureEmpty();
    }
  }
} finally {
  await browser.close();
  host.stop();
  emptyHost.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(emptyHome, { recursive: true, force: true });
}

console.log(`browser mode, a ${MESSAGES}-message conversation in the history, ${ROUNDS} fresh pages each (min / median / max):`);
console.log(`  first contentful paint: ${showSpread(results.firstPaint)}`);
console.log(`  interactive (conversations listed): ${showSpread(results.interactive)}; with an empty history ${showSpread(results.interactiveEmpty)}`);
console.log(`  open the long conversation: ${showSpread(results.open)}`);
console.log(`  scrolling it bottom to top: longest frame ${showSpread(results.maxFrame)}, 95th percentile ${showSpread(results.p95Frame)}`);
console.log(`  a static reference page of the same text, scrolled the same way: longest frame ${showSpread(results.referenceFrame)}`);
const interactiveRatio = median(results.interactive) / median(results.interactiveEmpty);
// Judged by the worst round, not the median: a person feels the worst frame.
const frameRatio = Math.max(...results.maxFrame) / Math.max(...results.referenceFrame);
console.log(
  `targets: interactive with the long conversation ≤ 1.2× an empty history (${interactiveRatio.toFixed(2)}×) ${interactiveRatio <= 1.2 ? 'met' : 'MISSED'}; ` +
    `longest scroll frame ≤ 1.3× the reference page's, worst rounds (${frameRatio.toFixed(2)}×) ${frameRatio <= 1.3 ? 'met' : 'MISSED'}`,
);
