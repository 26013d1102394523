#!/usr/bin/env node
// The `atrium` command. Plain JavaScript so that an old Node reaches the version check (nodeGate.mjs)
// before anything in TypeScript is loaded; the CLI itself is main/cli/atrium.ts.
import '../main/nodeGate.mjs';

await import('../main/cli/atrium.ts');
