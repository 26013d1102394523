// `npm run web`: the whole app in a browser. Starts the host core, serves the built renderer and the
// API over the loopback bridge, and prints the one line a person (or a test) needs: the URL with its
// token. Usage: node main/api/serveWeb.ts [--port N] [--config FILE]
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startHostCore } from '../host/hostCore.ts';
import { resolveAtriumHome } from '../store/appHome.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';
import { windowSecrets } from '../store/secrets.ts';
import { startBrowserBridge } from './browserBridge.ts';

const staticDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

function fail(message: string): never {
  process.stderr.write(`atrium web: ${message}\n`);
  process.exit(1);
}

function readOptions(): { port: number; configPath: string | undefined } {
  let values: { port?: string; config?: string };
  try {
    ({ values } = parseArgs({ options: { port: { type: 'string' }, config: { type: 'string' } }, strict: true }));
  } catch (error) {
    fail(`${(error as Error).message}\nUsage: node main/api/serveWeb.ts [--port N] [--config FILE]`);
  }
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port must be a number from 0 to 65535, not "${values.port}".`);
  return { port, configPath: values.config === undefined ? undefined : resolve(values.config) };
}

async function main(): Promise<void> {
  const { port, configPath } = readOptions();
  if (!existsSync(`${staticDir}index.html`)) fail('the renderer is not built: run `npm run build:renderer` first.');

  const home = resolveAtriumHome();
  // Keys entered in the window are kept encrypted in the data folder; the environment's still come first.
  const secretStore = encryptedFileSecrets(home);
  const core = await startHostCore({
    home,
    // A person is at the window to answer, so unless they turned sampling off in Settings, servers'
    // sampling requests are asked (never auto-approved).
    samplingDefault: 'ask',
    secrets: windowSecrets(secretStore),
    secretStore,
    frontEnd: { kind: 'browser' },
    // A remote server's sign-in page is opened by the window, in a new tab of the person's own browser
    // (the server's `auth.signInUrl`): the host never launches a browser itself, and sign-ins are kept
    // in the same encrypted store as keys.
    signIn: { openAuthorizationUrl: () => undefined },
    ...(configPath ? { configPath } : {}),
  });
  const bridge = await startBrowserBridge({ api: core.api, events: core.events, staticDir, port }).catch(
    async (error: unknown) => {
      await core.shutdown();
      throw error;
    },
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second Ctrl+C means "now": skip the orderly shutdown.
    if (stopping) process.exit(130);
    stopping = true;
    void (async () => {
      await bridge.close().catch(() => undefined);
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
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
