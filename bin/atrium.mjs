#!/usr/bin/env node
// The `atrium` command. Plain JavaScript so that an old Node reaches the version check (nodeGate.mjs)
// before anything in TypeScript is loaded. The CLI itself is main/cli/atrium.ts, run from its bundle in
// dist/node/ while that matches the sources (main/bundle/builtOrSource.mjs), else from the source.
import '../main/nodeGate.mjs';
import { moduleToRun } from '../main/bundle/builtOrSource.mjs';

await import(moduleToRun('atrium'));
