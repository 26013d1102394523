// Every way a person starts Atrium, run on a Node that is too old: each must say the one sentence naming
// the Node it needs, and exit 1, instead of Node's ERR_UNKNOWN_FILE_EXTENSION stack for a .ts file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> });

/** A Node older than 22.13 on this machine's PATH, if there is one (CI provisions 22 in front of it). */
function findOldNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).concat(['/usr/bin', '/usr/local/bin'])) {
    const candidate = join(dir, 'node');
    try {
      const version = execFileSync(candidate, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim();
      const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
      if (major < 22 || (major === 22 && minor < 13)) return candidate;
    } catch {
      // Not there, or not runnable.
    }
  }
  return undefined;
}

const oldNode = findOldNode();

function runShell(command: string, args: readonly string[] = []): Promise<{ code: number; stderr: string; stdout: string }> {
  // The old Node comes first on PATH, as it would for a person whose machine only has that one.
  const env = { ...process.env, PATH: `${dirname(oldNode ?? '')}${delimiter}${process.env.PATH ?? ''}`, ATRIUM_HOME: '/nonexistent-atrium-home' };
  return new Promise((resolve) => {
    execFile('sh', ['-c', `${command} "$@"`, 'sh', ...args], { cwd: root, env, timeout: 60_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const entryPoints: Array<[string, string, string[]]> = [
  ['npm start', scripts.scripts.start ?? '', []],
  ['npm run web', scripts.scripts.web ?? '', []],
  ['npm run atrium', scripts.scripts.atrium ?? '', ['--help']],
  ['npm run conformance', scripts.scripts.conformance ?? '', []],
  ['npm run conformance-client', scripts.scripts['conformance-client'] ?? '', ['http://127.0.0.1:9/mcp']],
  ['the atrium command', `node ${scripts.bin.atrium ?? ''}`, ['servers']],
];

for (const [name, command, args] of entryPoints) {
  test(`${name} on an old Node says which Node Atrium needs, in one line, and exits 1`, { skip: oldNode ? false : 'no Node older than 22.13 on this machine', timeout: 90_000 }, async () => {
    const { code, stdout, stderr } = await runShell(command, args);
    assert.equal(code, 1, `${name} exited ${code}: ${stderr}`);
    assert.equal(stdout, '');
    assert.match(stderr, /^Atrium needs Node\.js 22\.13\.0 or newer; this is Node\.js \d+\.\d+\.\d+\. /);
    assert.equal(stderr.trimEnd().split('\n').length, 1, stderr);
    assert.doesNotMatch(stderr, /ERR_|\n\s+at /);
  });
}
