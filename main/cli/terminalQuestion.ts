// Questions on the terminal, through readline, one at a time. While a question waits for its answer,
// readline reads every key itself (the terminal is in raw mode), so Ctrl+C sends no SIGINT: it is handed
// to `interrupt`, and the command ends as it does on a Ctrl+C pressed at any other moment. Ctrl+D ends
// the input: the question gets an empty answer.

import { createInterface } from 'node:readline/promises';

/** Asks on the terminal; the signal takes the question back (its request ended, or the command is interrupted). */
export type TerminalAsk = (question: string, signal?: AbortSignal) => Promise<string>;

/** A question on the terminal, when standard input is one; `interrupt` is called on Ctrl+C while it is asked. */
export function terminalAsk(interrupt: () => void): TerminalAsk | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question, signal) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    // With a listener, readline leaves Ctrl+C to it instead of rejecting the question with its own AbortError.
    rl.on('SIGINT', () => {
      process.stdout.write('^C');
      interrupt();
    });
    try {
      return await rl.question(question, signal ? { signal } : {});
    } catch (error) {
      // A question taken back, or ended with Ctrl+D, leaves its line unfinished: what follows starts on a line of its own.
      process.stdout.write('\n');
      if (signal?.aborted || (error as Error).name !== 'AbortError') throw error;
      // Ctrl+D ends the input with nothing typed: an empty answer, which every question takes as its safe default (no).
      return '';
    } finally {
      rl.close();
    }
  };
}
