// `npm run web`: the whole app in a browser. Builds the window when its sources changed since the last
// build, takes the data folder (one host per folder), starts the host core, serves the built renderer
// and the API over the loopback bridge, and says where: the URL with its token first (the line a test
// waits for), then the data folder and how to stop.
// Usage: node main/web/serveWeb.ts [--port N] [--open] [--no-build] [--config FILE]
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startHostCore } from '../app/hostCore.ts';
import { resolveAtriumHome } from '../store/appHome.ts';
import { alreadyRunningSentence, lockDataFolder } from '../store/dataFolderLock.ts';
import type { LockHolder } from '../store/dataFolderLock.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';
import { windowSecrets } from '../store/secrets.ts';
import { openInBrowser } from './openInBrowser.ts';
import { buildRenderer, rendererOutDir, rendererRebuildReason } from '../api/rendererBuild.ts';
import { listenOnWebPort } from './webPort.ts';
import { startViewSandboxServer } from './viewSandboxServer.ts';

const staticDir = `${rendererOutDir}/`;
const usage = 'Usage: npm run web -- [--port N] [--open] [--no-build] [--config FILE]';

function fail(message: string): never {
  process.stderr.write(`atrium web: ${message}\n`);
  process.exit(1);
}

interface WebOptions {
  /** undefined: the default port, or a free one when it is taken. */
  port: number | undefined;
  open: boolean;
  build: boolean;
  configPath: string | undefined;
}

function readOptions(): WebOptions {
  let values: { port?: string; config?: string; open?: boolean; 'no-build'?: boolean };
  try {
    ({ values } = parseArgs({ options: { port: { type: 'string' }, config: { type: 'string' }, open: { type: 'boolean' }, 'no-build': { type: 'boolean' } }, strict: true }));
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!/^\d+$/.test(values.port ?? '') || port > 65_535)) fail(`--port must be a number from 0 to 65535 (0: any free port), not "${values.port}".`);
  return { port, open: values.open === true, build: values['no-build'] !== true, configPath: values.config === undefined ? undefined : resolve(values.config) };
}

function alreadyRunning(home: string, holder: LockHolder): string {
  return [
    alreadyRunningSentence(home, holder),
    holder.frontEnd === 'desktop'
      ? 'Use its window, or quit it first.'
      : 'Open the address it printed in its terminal (it holds the token), or stop it there with Ctrl+C first.',
    'To run a second, separate Atrium, give it its own data folder: ATRIUM_HOME=/another/folder npm run web',
  ].join('\n');
}

async function main(): Promise<void> {
  const options = readOptions();
  if (options.build) {
    const reason = await rendererRebuildReason();
    if (reason) {
      process.stdout.write(`Building the window (${reason})…\n`);
      await buildRenderer();
    }
  }
  if (!existsSync(`${staticDir}index.html`)) fail('the window is not built: run `npm run build:renderer` first.');

  const home = resolveAtriumHome();
  // Taken before any server starts: a second host on the same folder would start them all again.
  const attempt = await lockDataFolder(home, 'browser');
  if ('heldBy' in attempt) fail(alreadyRunning(home, attempt.heldBy));
  const heldLock = attempt.lock;
  // Every way out gives the folder up, Ctrl+C twice and a failed start included.
  process.on('exit', () => heldLock.release());
  // Keys entered in the window are kept encrypted in the data folder; the environment's still come first.
  const secretStore = encryptedFileSecrets(home);
  // MCP Apps views are shown from an origin of their own, never the page's (main/web/viewSandboxServer.ts).
  const viewSandbox = await startViewSandboxServer();
  const core = await startHostCore({
    home,
    // A person is at the window to answer, so unless they turned sampling off in Settings, servers'
    // sampling requests are asked (never auto-approved).
    samplingDefault: 'ask',
    secrets: windowSecrets(secretStore),
    secretStore,
    frontEnd: { kind: 'browser', viewSandbox: viewSandbox.pageUrl },
    // A remote server's sign-in page is opened by the window, in a new tab of the person's own browser
    // (the server's `auth.signInUrl`): the host never launches a browser itself, and sign-ins are kept
    // in the same encrypted store as keys.
    signIn: { openAuthorizationUrl: () => undefined },
    ...(options.configPath ? { configPath: options.configPath } : {}),
  });
  const { bridge, note } = await listenOnWebPort({ api: core.api, events: core.events, staticDir, viewSandboxOrigin: new URL(viewSandbox.pageUrl).origin }, options.port).catch(async (error: unknown) => {
    await core.shutdown();
    await viewSandbox.close();
    throw error;
  });
  await heldLock.setAddress(new URL(bridge.url).origin + '/');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second Ctrl+C means "now": skip the orderly shutdown.
    if (stopping) process.exit(130);
    stopping = true;
    void (async () => {
      await bridge.close().catch(() => undefined);
      await viewSandbox.close().catch(() => undefined);
      await core.shutdown();
    })().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`atrium web: shutdown after ${signal} failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  process.stdout.write(`Atrium is running at ${bridge.url}\n`);
  if (note) process.stdout.write(`${note}\n`);
  process.stdout.write(`Data folder: ${home}\n`);
  if (options.open) {
    const opened = await openInBrowser(bridge.url);
    process.stdout.write(opened ? 'Opened it in your browser.\n' : 'Could not open a browser here: open the address above yourself.\n');
  }
  process.stdout.write('Press Ctrl+C to stop.\n');
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
