// `npm run dist`: builds the renderer, the shell and the sample server, then packages Atrium with
// electron-builder for the OS it runs on (electron-builder.yml: AppImage + deb, a universal dmg, nsis),
// with the fuses flipped. electron-builder downloads Electron's binaries from GitHub; where it cannot,
// the failure is one sentence, not a stack trace.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** Errors that mean the network, not the project: the download never happened. */
const unreachable = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|CERT_|UNABLE_TO_GET_ISSUER|self[- ]signed certificate|socket hang up|tunneling socket|status code (403|404|407|429|5\d\d))\b/i;

/** electron-builder marks its fatal error with ⨯ and appends the stack after "failedTask=" or "stackTrace=". */
export function firstError(output: string): string | undefined {
  const line = output.split('\n').find((l) => l.trimStart().startsWith('⨯')) ?? output.split('\n').find((l) => /error/i.test(l) && !/^\s+at\s/.test(l));
  if (!line) return undefined;
  const message = line.replace(/^\s*⨯\s*/, '').split(/\s+(failedTask|stackTrace)=/)[0]!.trim();
  return message.length > 160 ? `${message.slice(0, 157)}...` : message;
}

/** One line saying why packaging failed; a download that could not reach GitHub says so plainly. */
export function packagingFailure(output: string, status: number | null, electronVersion: string): string {
  const error = firstError(output);
  if (error && unreachable.test(error)) {
    return `Atrium: packaging needs Electron ${electronVersion}'s binaries from GitHub, which this machine cannot reach (${error}). Run "npm run dist" on a machine that can reach github.com.`;
  }
  return error ? `Atrium: packaging failed: ${error}` : `Atrium: packaging failed (electron-builder exited with code ${status ?? 'unknown'}).`;
}

/** Runs a program, collecting what it prints (shown only when it fails for a reason other than the network). */
function run(command: string, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ status: null, output: `${output}\n⨯ ${error.message}` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

export async function main(): Promise<number> {
  const electronVersion = (JSON.parse(readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'error' });
  const { buildElectron } = await import('./buildElectron.ts');
  await buildElectron();

  if (process.stdout.isTTY) console.log(`Atrium: packaging for ${process.platform} with electron-builder (a few minutes)...`);
  const cli = require.resolve('electron-builder/cli.js');
  const { status, output } = await run(process.execPath, [cli, '--publish', 'never']);
  if (status === 0) {
    console.log(`Atrium: packaged into ${path.join(root, 'release')}${path.sep}`);
    return 0;
  }
  const summary = packagingFailure(output, status, electronVersion);
  // The project's own mistakes need electron-builder's detail; a network failure does not.
  if (!summary.includes('cannot reach')) process.stderr.write(output);
  console.error(summary);
  return 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
