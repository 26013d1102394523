// `npm start` (through launch.mjs, which checks the Node version first): builds the renderer and the
// Electron shell, then launches Electron. Electron's binary comes from GitHub and install scripts
// are off (see .npmrc), so a missing binary is fetched here once; where that cannot work, one line
// points to the browser mode instead of a stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const installTimeoutMs = 180_000;

export type ElectronLocation = { found: true; executable: string } | { found: false; reason: string };

/** The files a lookup reads, so the decision can be tested without a real node_modules. */
export interface FileProbe {
  readText(file: string): string | undefined;
  exists(file: string): boolean;
}

export const realFiles: FileProbe = {
  readText: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
  exists: existsSync,
};

/** Finds Electron's executable the way the electron package does: path.txt names it under dist/. */
export function locateElectron(dir: string, files: FileProbe): ElectronLocation {
  if (!files.exists(path.join(dir, 'package.json'))) return { found: false, reason: 'the electron package is not installed; run "npm ci"' };
  const named = files.readText(path.join(dir, 'path.txt'))?.trim();
  if (!named) return { found: false, reason: 'it was never downloaded' };
  const executable = path.join(dir, 'dist', named);
  if (!files.exists(executable)) return { found: false, reason: `${path.join('node_modules', 'electron', 'dist', named)} is missing` };
  return { found: true, executable };
}

export interface InstallOutcome {
  status: number | null;
  timedOut: boolean;
  output: string;
}

/** Turns a failed download into a few words: the first line of its error, without the stack. */
export function installFailureReason(outcome: InstallOutcome, timeoutMs = installTimeoutMs): string {
  if (outcome.timedOut) return `the download did not finish within ${Math.round(timeoutMs / 1000)} s`;
  const first = outcome.output
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith('at ') && !line.startsWith('Downloading'));
  if (!first) return `the download failed with exit code ${outcome.status ?? 'unknown'}`;
  return `the download failed: ${first.length > 120 ? `${first.slice(0, 117)}...` : first}`;
}

export function missingElectronMessage(reason: string): string {
  return `Atrium: Electron's binary is not installed on this machine (${reason}). Run "npm run web" to use Atrium in your browser instead.`;
}

/** Electron runs the app in `root` (package.json's "main" is the built dist/electron/main.mjs). */
export function electronCommand(executable: string, appDir: string, env: NodeJS.ProcessEnv): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  // With ELECTRON_RUN_AS_NODE set, Electron would run as plain Node and never open a window.
  const { ELECTRON_RUN_AS_NODE: _ignored, ...rest } = env;
  return { command: executable, args: [appDir], env: rest };
}

function tryInstallElectron(): InstallOutcome {
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
    cwd: electronDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: installTimeoutMs,
    killSignal: 'SIGKILL',
  });
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  return { status: result.status, timedOut, output: `${result.stderr ?? ''}\n${result.stdout ?? ''}\n${result.error?.message ?? ''}` };
}

function runNpmScript(script: string): number {
  // Under `npm start`, npm_execpath is npm's own CLI, which runs on this Node on every platform.
  const npmCli = process.env.npm_execpath;
  const result = npmCli
    ? spawnSync(process.execPath, [npmCli, 'run', script], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status ?? 1;
}

export async function main(): Promise<number> {
  let location = locateElectron(electronDir, realFiles);
  if (!location.found && existsSync(path.join(electronDir, 'install.js'))) {
    if (process.stdout.isTTY) console.log("Atrium: fetching Electron's binary (first run only)...");
    const outcome = tryInstallElectron();
    location = locateElectron(electronDir, realFiles);
    if (!location.found && outcome.status !== 0) location = { found: false, reason: installFailureReason(outcome) };
  }
  if (!location.found) {
    console.error(missingElectronMessage(location.reason));
    return 1;
  }

  if (runNpmScript('build:renderer') !== 0) return 1;
  const { buildElectron } = await import('./buildElectron.ts');
  await buildElectron();

  const { command, args, env } = electronCommand(location.executable, root, process.env);
  const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
  // Ctrl+C reaches Electron too (same process group); this covers a signal sent to this process alone.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`Atrium: Electron could not be started (${error.message}).`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
