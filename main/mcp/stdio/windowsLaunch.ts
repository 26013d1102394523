// Windows cannot run a .cmd or .bat file without cmd.exe, and npx, npm, pnpm and most installed
// servers are such shims. Since CVE-2024-27980 Node refuses to spawn them without a shell, and a shell
// given the arguments as they are would run whatever `&`, `|` or `%VAR%` they carry. cross-spawn (the
// library the MCP SDK itself uses for this) finds the command through PATH and PATHEXT and, when it is
// not an .exe, runs it through `cmd.exe /d /s /c` with the command and every argument escaped for
// cmd.exe, twice for node_modules/.bin shims, whose own cmd.exe reads them again.

import type { ChildProcess, SpawnOptions } from 'node:child_process';
import crossSpawn from 'cross-spawn';

export interface WindowsLaunch {
  command: string;
  args: string[];
  options: SpawnOptions;
}

// Part of cross-spawn's exports (used by its own tests), not of its type declarations.
const { _parse: parse } = crossSpawn as unknown as { _parse(command: string, args: string[], options: SpawnOptions): WindowsLaunch };

/** What Windows is asked to run for `command args…`: the command itself, or cmd.exe with everything escaped. */
export function windowsLaunch(command: string, args: readonly string[], options: SpawnOptions): WindowsLaunch {
  const { command: file, args: argv, options: spawnOptions } = parse(command, [...args], options);
  return { command: file, args: argv, options: spawnOptions };
}

/** Spawns on Windows the way windowsLaunch describes; a missing command still fails with ENOENT. */
export function spawnOnWindows(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  return crossSpawn(command, [...args], options);
}
