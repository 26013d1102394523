// The escaping Windows gets for a server's command line, checked here by running windowsLaunch in a Node
// that believes it is on Windows (cross-spawn decides by process.platform when it loads).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '../../../e2e/fixtures/hostHarness.ts';
import type { WindowsLaunch } from './windowsLaunch.ts';

const modulePath = fileURLToPath(new URL('./windowsLaunch.ts', import.meta.url));

function launchOnWindows(command: string, args: string[]): WindowsLaunch {
  const script = `
    Object.defineProperty(process, 'platform', { value: 'win32' });
    const { windowsLaunch } = await import(${JSON.stringify(modulePath)});
    process.stdout.write(JSON.stringify(windowsLaunch(process.argv[1], JSON.parse(process.argv[2]), {})));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, command, JSON.stringify(args)], { encoding: 'utf8', env: { ...process.env, comspec: 'C:\\\\Windows\\\\system32\\\\cmd.exe' } });
  return JSON.parse(out) as WindowsLaunch;
}

/** cmd.exe's special characters that must never reach it bare (spaces between arguments aside). */
const CMD_META = /[()%!^"<>&|;,]/;

function bareMetaCharacters(line: string): string[] {
  const bare: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (ch === '^') {
      i++; // the next character is escaped
      continue;
    }
    if (CMD_META.test(ch)) bare.push(`${ch}@${i}`);
  }
  return bare;
}

test('a shim such as npx runs through cmd.exe /d /s /c, with verbatim arguments', () => {
  const launch = launchOnWindows('npx', ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\Users\\me']);
  assert.equal(launch.command, 'C:\\\\Windows\\\\system32\\\\cmd.exe');
  assert.deepEqual(launch.args.slice(0, 3), ['/d', '/s', '/c']);
  assert.equal(launch.options.windowsVerbatimArguments, true);
  assert.match(launch.args[3] ?? '', /^"npx \^"-y\^" \^"@modelcontextprotocol\/server-filesystem\^" \^"C:\\Users\\me\^""$/);
});

test('CVE-2024-27980: & | < > % ! ^ and quotes in an argument are escaped, so cmd.exe runs nothing they name', () => {
  const hostile = ['x & calc.exe', 'a | b', '<in >out', '%PATH%', '!VAR!', 'caret^', 'quo"te', 'trailing\\'];
  const line = launchOnWindows('npx', hostile).args[3] ?? '';
  // The whole line is wrapped in one pair of quotes that /s strips; inside it nothing special is bare.
  assert.deepEqual(bareMetaCharacters(line.slice(1, -1)), []);
  assert.ok(line.includes('^"x^ ^&^ calc.exe^"'), line);
  assert.ok(line.includes('^%PATH^%'), line);
  // A quote inside an argument is backslash-escaped for the program's own parsing, then escaped for cmd.exe.
  assert.ok(line.includes('^"quo\\^"te^"'), line);
  // A trailing backslash is doubled, so it does not escape the closing quote.
  assert.ok(line.includes('^"trailing\\\\^"'), line);
});

test('a node_modules/.bin shim gets its metacharacters escaped twice (its own cmd.exe reads them again)', async () => {
  const folder = await makeTempDir('atrium-shim-');
  try {
    const shim = join(folder, 'node_modules', '.bin', 'server.cmd');
    await mkdir(dirname(shim), { recursive: true });
    await writeFile(shim, '@echo off\r\n');
    const line = launchOnWindows(shim, ['a&b']).args[3] ?? '';
    assert.ok(line.includes('^^^&'), line);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
