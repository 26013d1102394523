#!/usr/bin/env node
// The headless front end: `atrium <command> [options]`. See cliArgs.ts for the commands.

import { terminalAsk } from './chatCommand.ts';
import { runCli } from './runCli.ts';

const ask = terminalAsk();
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

const code = await runCli(
  process.argv.slice(2),
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    write: (text) => process.stdout.write(text),
    env: process.env,
    ...(ask ? { ask } : {}),
  },
  controller.signal,
);
process.exitCode = code;
