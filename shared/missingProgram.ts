// What a person is told when a server's command is a program found nowhere on the PATH the server gets
// (a slip in its name, or a program not installed yet): said before it is approved or started, in the
// window's start dialog and the terminal alike, with the launcher it most likely meant.

import { nearestWord } from './nearestWord.ts';

/** The programs MCP servers are most often started with: a command a slip away from one of these names it. */
const COMMON_LAUNCHERS = ['node', 'npx', 'npm', 'pnpm', 'bun', 'bunx', 'deno', 'uvx', 'uv', 'python', 'python3', 'pipx', 'docker', 'podman', 'java', 'go', 'dotnet', 'ruby', 'php'];

/** One sentence, its stop included: the command is no program here, so it cannot start as written, and what it may have meant. */
export function missingProgramSentence(command: string): string {
  const meant = nearestWord(command, COMMON_LAUNCHERS.filter((launcher) => launcher !== command));
  return `${command} is not a program on this computer (nothing of that name is on the PATH the server gets), so it cannot start as written${meant ? `: did you mean ${meant}?` : '.'}`;
}
