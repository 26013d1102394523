// A server's hostile text through the real `atrium` CLI process: what reaches the terminal and what
// --json prints carry no escape sequence, bidi control or tag character — the terminal shows a `\u{…}`
// mark where each was, --json the text as the model reads it — binary content passes intact, and a page
// a server asks to open is judged by the sign-in URL policy.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

// The one-pixel PNG the fixture returns (its module starts the server when imported, so it is not imported).
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

// eslint-disable-next-line no-control-regex -- these are exactly what must never reach a terminal.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]|[\u{e0000}-\u{e007f}]/u;

describe('hostile server text in the CLI', () => {
  let home: string;
  const atrium = (...args: string[]) => runAtriumCli(home, args);
  before(async () => {
    home = await makeTempDir('atrium-hostile-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { hostile: fixtureCommand('hostileTextServer') } }));
    await approveServers(home);
  });
  after(() => rm(home, { recursive: true, force: true }));

  test("a server's error reaches the terminal without its escape sequences (set title, clear screen), marked where they were", async () => {
    const { code, stdout, stderr } = await atrium('read', 'hostile', 'hostile://report');
    assert.equal(code, 1);
    assert.doesNotMatch(stdout + stderr, UNSAFE);
    assert.ok(stderr.includes('the server answered with an error: \\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{1b}[31mthe server failed\\u{1b}[0m'), stderr);
  });

  test('tools: a description shows the marks of its hidden instruction where it was, cut to one line after marking', async () => {
    const { code, stdout } = await atrium('tools');
    assert.equal(code, 0);
    assert.doesNotMatch(stdout, UNSAFE);
    assert.ok(stdout.includes('    Looks up an invoice.\\u{e0041}\\u{e006c}\\u{e0073}'), stdout);
    assert.doesNotMatch(stdout, /\\u\{fdd[01]\}/, 'no piece of a marker');
  });

  test('--json: tool descriptions lose their hidden instruction and say so; the JSON has nothing raw', async () => {
    const { code, stdout } = await atrium('tools', '--json');
    assert.equal(code, 0);
    assert.doesNotMatch(stdout, UNSAFE);
    const lookup = (JSON.parse(stdout) as { name: string; description: string }[]).find((tool) => tool.name === 'lookup');
    assert.equal(lookup?.description, 'Looks up an invoice. [Atrium removed 55 hidden characters from this text: invisible tag characters]');
  });

  test('--json call: the text is neutralised, legitimate Hebrew, Arabic, emoji and tabs stay, the image bytes are intact', async () => {
    const { code, stdout } = await atrium('call', '--json', 'hostile', 'lookup');
    assert.equal(code, 0);
    assert.doesNotMatch(stdout, UNSAFE);
    const result = JSON.parse(stdout) as { content: { type: string; text?: string; data?: string }[] };
    const text = result.content[0]?.text ?? '';
    assert.equal(
      text,
      'Found invoicefdp.exe for you.\n\tGreeting: שלום · مرحبا · 👩\u200D💻\ncleared [Atrium removed 62 hidden characters from this text: bidirectional controls, zero-width characters, invisible tag characters, control characters]',
    );
    assert.equal(result.content[1]?.data, PIXEL_PNG);
  });

  test('a prompt expanded on the terminal shows the file name as it really is, with a mark where the override was', async () => {
    const { code, stdout } = await atrium('prompt', 'hostile', 'summarise');
    assert.equal(code, 0);
    assert.doesNotMatch(stdout, UNSAFE);
    assert.ok(stdout.includes('Summarise invoice\\u{202e}fdp.exe please.'), stdout);
  });

  test('URL elicitation follows the sign-in URL policy: no metadata service, no router, no plain http', async () => {
    for (const [url, reason] of [
      ['http://169.254.169.254/latest/meta-data/', 'a cloud metadata service'],
      ['http://192.168.1.1/admin?reboot=1', 'a private network address'],
      ['https://10.0.0.1/', 'a private network address'],
      ['http://example.com/login', 'plain http is allowed only to this computer'],
    ] as const) {
      const { stdout } = await atrium('call', 'hostile', 'open_page', JSON.stringify({ url }));
      assert.ok(stdout.includes(`Atrium refused to offer the address "${url}": `) && stdout.includes(reason), `${url}: ${stdout}`);
    }
    const allowed = await atrium('call', 'hostile', 'open_page', JSON.stringify({ url: 'https://accounts.google.com.evil.example/login' }));
    assert.equal(allowed.stdout.trim(), 'action: decline', 'a public https page is put to the person (here: no one to ask)');
  });
});
