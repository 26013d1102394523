// The `npm start` entry. Plain JavaScript on purpose: the Node version check (nodeGate.mjs, shared by
// every entry point) must run before anything in TypeScript is loaded. Everything else lives in
// launch.ts, imported once the Node version is known to be good.
import '../nodeGate.mjs';

const { main } = await import('./launch.ts');
process.exitCode = await main();
