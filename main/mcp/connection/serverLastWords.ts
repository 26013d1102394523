// What a server that died last wrote to stderr, in the few words that explain its end: why it died is
// usually there, not in its exit code. Shown on its card and on a terminal, so hidden characters are marked.

import { markHidden } from '../../../shared/serverText.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { packageRunnerFailure } from './packageRunnerFailure.ts';

/** How much of a dead server's stderr is kept to explain its exit, and how long a line is shown. */
const STDERR_LINES_KEPT = 30;
const STDERR_LINE_SHOWN = 300;
/** A line that says what went wrong, in most runtimes' words. */
const SAYS_WHAT_FAILED = /(error|exception)\b|\b(fatal|panic|cannot|can't|could not|not found|no such|denied|failed|refus)/i;
/** Lines that only say where (stack frames, Node's closing version line, a lone brace). */
const SAYS_ONLY_WHERE = /^(at\s|File\s"|Traceback \(most recent call last\)|Node\.js v\d|[{}[\]()]+$|\^+$)/;

/** Package runners fetch the server on its first start, which can take longer than the time limit. */
const PACKAGE_RUNNERS = /^(npx|pnpx|bunx|uvx|pipx|dnx)(\.cmd|\.exe)?$/i;

export function downloadHint(definition: ServerDefinition): string {
  if (definition.transport !== 'stdio') return '';
  const runner = definition.command.split(/[\\/]/).pop() ?? '';
  const viaRunner = PACKAGE_RUNNERS.test(runner) || (/^(pnpm|yarn|npm)(\.cmd)?$/i.test(runner) && ['dlx', 'exec'].includes(definition.args[0] ?? ''));
  return viaRunner ? `; ${runner} may still be downloading the server on its first start: try again in a minute` : '';
}

/**
 * The lines of a dead server's stderr that explain its end: the last two that say what failed (an
 * "Error: Cannot find module" above a stack trace), else its last two lines that are not a stack.
 */
export function telling(lines: readonly string[]): string[] {
  const meaningful = lines.filter((line) => !SAYS_ONLY_WHERE.test(line));
  const failures = meaningful.filter((line) => SAYS_WHAT_FAILED.test(line));
  return (failures.length > 0 ? failures : meaningful).slice(-2);
}

/** The last lines a server wrote to stderr, kept to explain its end. */
export class ServerLastWords {
  private readonly recent: string[] = [];

  remember(line: string): void {
    const text = line.trim();
    if (text === '') return;
    this.recent.push(text.length > STDERR_LINE_SHOWN ? `${text.slice(0, STDERR_LINE_SHOWN)}…` : text);
    if (this.recent.length > STDERR_LINES_KEPT) this.recent.shift();
  }

  /** "; it last wrote: …" after an exit, or nothing when the server wrote nothing. */
  lastWords(): string {
    // A package runner that could not fetch the server says so in a dozen lines: one sentence says it better.
    const runnerFailure = packageRunnerFailure(this.recent);
    if (runnerFailure !== undefined) return `; ${markHidden(runnerFailure)}`;
    const shown = telling(this.recent);
    return shown.length === 0 ? '' : `; it last wrote: ${markHidden(shown.join(' | '))}`;
  }
}
