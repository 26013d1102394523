#!/usr/bin/env node
// The headless front end: `atrium <command> [options]`. See cliArgs.ts for the commands. Run through
// bin/atrium.mjs (which checks the Node version first) or directly with `node main/cli/atrium.ts`.

import { visibleText } from '../../shared/visibleText.ts';
import { informationAnswer } from './cliArgs.ts';
import type { StopSignal } from './interruption.ts';

const argv = process.argv.slice(2);
// --help and --version load nothing of the host, so they answer at once.
const answer = informationAnswer(argv);
if (answer !== undefined) {
  process.stdout.write(`${answer}\n`);
} else {
  process.exitCode = await runFromTerminal().catch(unexpected);
}

/**
 * A failure nothing below turned into a sentence: one line for the person, never Node's report of an
 * uncaught error (which quotes the line of code that threw — from the bundle, kilobytes of minified code).
 */
function unexpected(error: unknown): number {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  const full = /\bENOSPC\b|disk is full/i.test(`${message} ${String((error as { code?: unknown } | null)?.code ?? '')}`);
  const text = full ? 'the disk is full: free some space, then try again' : `something went wrong that Atrium did not expect: ${message}`;
  process.stderr.write(`${visibleText(`atrium: ${text}`)}\n`);
  return 1;
}

async function runFromTerminal(): Promise<number> {
  const [{ terminalAsk }, { runCli }] = await Promise.all([import('./terminalQuestion.ts'), import('./runCli.ts')]);
  // Ctrl+C and SIGTERM end the command, whatever it is doing; the reason says which (interruption.ts).
  const controller = new AbortController();
  const stop = (by: StopSignal) => {
    if (controller.signal.aborted) return;
    // The terminal echoed ^C where the cursor was: what the command says next starts on its own line.
    if (by === 'SIGINT' && process.stderr.isTTY) process.stderr.write('\n');
    controller.abort(by);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop(signal));
  // Ctrl+C at a question reaches readline, not a signal handler: it interrupts the same way.
  const terminal = terminalAsk(() => controller.abort('SIGINT'));
  // A question still on the terminal when the run is over, or interrupted, is taken back, so the process can end.
  const runOver = new AbortController();
  const ask = terminal && ((question: string, signal?: AbortSignal) => terminal(question, AbortSignal.any([...(signal ? [signal] : []), runOver.signal, controller.signal])));

  // A reader that stopped reading (`atrium chat … | head`) wants nothing more: the run stops quietly.
  let readerGone = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    readerGone = true;
    controller.abort();
  });
  // The terminal is the last consumer: whatever text reaches it, no escape sequence or control character
  // from a server (or a model) can drive it; they are written as visible marks.
  const toStdout = (text: string) => {
    if (!readerGone) process.stdout.write(visibleText(text));
  };

  const code = await runCli(
    argv,
    {
      out: (text) => toStdout(`${text}\n`),
      err: (text) => {
        if (!readerGone) process.stderr.write(`${visibleText(text)}\n`);
      },
      write: toStdout,
      env: process.env,
      ...(ask ? { ask } : {}),
      ...(process.stderr.isTTY ? { progress: (text: string) => process.stderr.write(`${visibleText(text)}\n`) } : {}),
    },
    controller.signal,
  );
  runOver.abort();
  return readerGone ? 0 : code;
}
