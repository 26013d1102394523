// Which file a stdio server's command runs, found as the launch finds it: a command with a folder in it
// is that file (relative to the working folder); a bare name is the first executable file of that name
// in the PATH the server gets, in order. The launch checks it before it spawns, and the launch approval
// pins the answer, so both look the command up the same way.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';

export type CommandLookup = { found: string } | { problem: 'ENOENT' | 'EACCES' };

/** Finds `command` as execvp would with this environment and working folder (Windows also tries PATHEXT). */
export function lookUpCommand(command: string, env: Readonly<Record<string, string>>, cwd: string | undefined, platform: NodeJS.Platform = process.platform): CommandLookup {
  const base = cwd ?? process.cwd();
  const withFolder = platform === 'win32' ? /[\\/]/.test(command) : command.includes('/');
  // An empty PATH entry is the working folder, as execvp reads it.
  const places = withFolder ? [resolve(base, command)] : pathOf(env).split(platform === 'win32' ? ';' : delimiter).map((folder) => resolve(base, folder, command));
  const extensions = platform === 'win32' && !/\.[^\\/.]+$/.test(command) ? ['', ...(variable(env, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  let denied = false;
  for (const place of places) {
    for (const extension of extensions) {
      const candidate = place + extension;
      try {
        if (!statSync(candidate).isFile()) continue;
        if (platform !== 'win32') accessSync(candidate, constants.X_OK);
        return { found: candidate };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EACCES') denied = true;
      }
    }
  }
  return { problem: denied ? 'EACCES' : 'ENOENT' };
}

/** The PATH of an environment, however it is spelt (Windows writes `Path`). */
export function pathOf(env: Readonly<Record<string, string>>): string {
  return variable(env, 'PATH') ?? '';
}

function variable(env: Readonly<Record<string, string>>, name: string): string | undefined {
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}
