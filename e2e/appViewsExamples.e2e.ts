// MCP Apps (issue 16) with the official example servers from npm, run as stdio servers and not trusted:
// server-basic-react (a React view that calls its server's tool and sends a message), server-system-monitor
// (a view that polls a tool for its view only) and server-pdf (a viewer that reads a PDF this test makes,
// in chunks, through a tool for its view only). Each view renders in the sandbox, and every call it makes
// is asked in the approval dialog first.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { approve as answer, viewOf } from './fixtures/appViews.ts';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';

/** The example server's own entry point (its package's bin), run as its README says (`--stdio`). */
function exampleServer(name: string, args: string[] = []): { command: string; args: string[] } {
  const entry = fileURLToPath(new URL(`../node_modules/@modelcontextprotocol/${name}/dist/index.js`, import.meta.url));
  return { command: process.execPath, args: [entry, '--stdio', ...args] };
}

/** A one-page PDF with a line of text, built byte by byte (the cross-reference table names each object's offset). */
function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 40 120 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 240] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const pdfFolder = mkdtempSync(join(tmpdir(), 'atrium-pdf-'));
const pdfPath = join(pdfFolder, 'report.pdf');
writeFileSync(pdfPath, onePagePdf('Atrium test page'));

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'react__get-time', input: {} }] },
    { text: 'That is the time on the server.' },
    { text: 'Noted.' },
    { toolCalls: [{ name: 'monitor__get-system-info', input: {} }] },
    { text: 'Here is the system.' },
    { toolCalls: [{ name: 'pdf__display_pdf', input: { url: pdfPath } }] },
    { text: 'Here is the report.' },
  ],
  { react: exampleServer('server-basic-react'), monitor: exampleServer('server-system-monitor'), pdf: exampleServer('server-pdf', [pdfPath]) },
);


async function showView(page: Page, server: string, tool: string): Promise<void> {
  const offer = page.getByRole('region', { name: `View of ${server}/${tool}, not shown yet` });
  await expect(offer).toContainText('ui://');
  await offer.getByRole('button', { name: 'Show view', exact: true }).click();
}

test('the example servers’ views render and work: basic-react, system-monitor, pdf', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page, env().host, ['react', 'monitor', 'pdf']);
  await page.getByRole('button', { name: 'Servers' }).click();
  // The example servers speak the 2025 era (initialize); the fixture of appViewsRender.e2e.ts the 2026-07-28 one.
  await expect(page.getByRole('article', { name: 'react', exact: true })).toContainText(/MCP 2025-\d\d-\d\d/);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();

  await test.step('server-basic-react: the React view shows the time, asks for it again through the dialog, and offers a message', async () => {
    await sendMessage(page, 'what time is it on the server?');
    await answer(page, 'get-time', 'Allow once');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('That is the time on the server.');
    await showView(page, 'react', 'get-time');
    const view = viewOf(page, 'get-time', 'react');
    await expect(view.getByText('Server Time:')).toBeVisible();
    await expect(view.getByText(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/).first()).toBeVisible();
    await view.getByRole('button', { name: 'Get Server Time' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run get-time?' });
    await expect(dialog).toContainText('The view of react/get-time');
    await answer(page, 'get-time', 'Allow once');
    await view.getByRole('button', { name: 'Send Message' }).click();
    const proposal = page.getByRole('group', { name: 'Message from the view' });
    await expect(proposal).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/app-view-basic-react.png' });
    await proposal.getByRole('button', { name: 'Send it' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Noted.');
  });

  await test.step('server-system-monitor: the view shows the machine, and polls its tool once allowed for this conversation', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'how is the system doing?');
    await answer(page, 'get-system-info', 'Allow once');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is the system.');
    await showView(page, 'monitor', 'get-system-info');
    const view = viewOf(page, 'get-system-info', 'monitor');
    await expect(view.getByText('System Monitor')).toBeVisible();
    await expect(view.getByText('Hostname')).toBeVisible();
    // The view polls poll-system-stats (for its view only) on its own: the first call is asked.
    await answer(page, 'poll-system-stats', 'Allow in this conversation');
    await expect(view.getByText(/\d+(\.\d+)?\s*%/).first()).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/app-view-system-monitor.png' });
  });

  await test.step('server-pdf: the viewer reads the PDF through its tool for views, once allowed, and shows it', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'show me the report');
    await answer(page, 'display_pdf', 'Allow once');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is the report.');
    await showView(page, 'pdf', 'display_pdf');
    await answer(page, 'read_pdf_bytes', 'Allow in this conversation', true);
    const view = viewOf(page, 'display_pdf', 'pdf');
    await expect(view.getByText('Atrium test page').first()).toBeAttached();
    await page.screenshot({ path: 'e2e/artifacts/app-view-pdf.png' });
  });
});
