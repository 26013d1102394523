// The `npm run web` entry. Plain JavaScript on purpose: the Node version check (nodeGate.mjs, shared by
// every entry point) must run before anything in TypeScript is loaded. It builds the host's bundle when
// its sources changed since the last build (as serveWeb.ts then does for the window), saying why, and
// runs it; with --no-build it runs what is there: the bundle if current, else the source.
import '../nodeGate.mjs';
import { bundleStaleReason, moduleToRun } from '../bundle/builtOrSource.mjs';

if (!process.argv.includes('--no-build') && process.env.ATRIUM_FROM_SOURCE !== '1') {
  const reason = bundleStaleReason();
  if (reason) {
    process.stdout.write(`Building the host (${reason})…\n`);
    const { buildBundles } = await import('../bundle/buildBundles.ts');
    // A host that cannot be bundled here still runs: from its source, only slower to start.
    await buildBundles().catch((/** @type {unknown} */ error) => {
      process.stdout.write(`Could not build the host, so it runs from its source: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  }
}
await import(moduleToRun('serveWeb'));
