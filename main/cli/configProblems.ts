// The servers file's problems, as the CLI reports them before a command runs.
import type { ConfigProblem } from '../../shared/domain.ts';

/**
 * Prints each problem as one line; true when the file as a whole could not be read (not JSON, not an
 * object), so no server was loaded and the command must stop instead of reporting "no servers".
 */
export function reportConfigProblems(problems: readonly ConfigProblem[], err: (text: string) => void): boolean {
  for (const problem of problems) err(`atrium: ${problem.message}`);
  return problems.some((problem) => problem.serverId === null);
}
