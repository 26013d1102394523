// The CLI run in this process with a scripted terminal, for tests: what it printed, what it asked, and
// its exit code. The terminal gives `replies` in order; without replies there is no terminal at all.

import { runCli } from '../runCli.ts';

export interface TerminalRun {
  code: number;
  out: string;
  err: string;
  asked: string[];
}

/**
 * Runs `atrium …args` on `home`. A question past the scripted replies is answered `orElse` when given,
 * and otherwise fails the run (a test should know every question it is asked).
 */
export async function runWithTerminal(home: string, args: string[], replies: string[] | undefined, orElse?: string): Promise<TerminalRun> {
  let out = '';
  const err: string[] = [];
  const asked: string[] = [];
  const code = await runCli(args, {
    out: (text) => (out += `${text}\n`),
    err: (text) => err.push(text),
    write: (text) => (out += text),
    env: { ...process.env, ATRIUM_HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test-not-real' },
    ...(replies
      ? {
          ask: async (question: string) => {
            asked.push(question);
            const reply = replies.shift() ?? orElse;
            if (reply === undefined) throw new Error(`no scripted reply for ${question}`);
            return reply;
          },
        }
      : {}),
  });
  return { code, out, err: err.join('\n'), asked };
}
