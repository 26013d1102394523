// Arguments the person (or the model) gave that do not fit what they are for — a tool's input schema, a
// prompt's declared arguments — found before anything reaches the server, every problem at once.
import type { FieldProblem } from '../../shared/fieldProblems.ts';
import type { ArgumentProblem } from '../chat/turnTools.ts';

/** Arguments that do not fit; the server never saw them. */
export class InvalidArgumentsError extends Error {
  readonly code = 'invalid_params';
  /** Each problem beside its argument, for a form of the arguments. */
  readonly fields: FieldProblem[];
  /** The same on a terminal: a line per argument, with what the tool or prompt says the argument is. */
  readonly commandLine: string;

  /** `what` names the tool or prompt as the person knows it: `files: tool "read_file"`, `docs: prompt "summary"`. */
  constructor(what: string, problems: readonly ArgumentProblem[]) {
    super(`${what} cannot take these arguments: ${argumentProblemsText(problems)}.`);
    this.name = 'InvalidArgumentsError';
    this.fields = problems.map(({ field, message }) => ({ field, message }));
    const lines = problems.map((problem) => `  ✗ ${problem.message}${problem.description ? ` — ${oneLine(problem.description)}` : ''}`);
    this.commandLine = [`${what} cannot take these arguments:`, ...lines].join('\n');
  }
}

/** The problems in one line: "a must be a number, not \"x\"; b is required". */
export function argumentProblemsText(problems: readonly ArgumentProblem[]): string {
  return problems.map((problem) => problem.message).join('; ');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
