// Why a stdio server could not be started, in the words of the person who configured it: the command is
// not there or cannot be run, its working folder is missing, or the spawn itself failed. Found before
// anything is spawned where it can be (launches through the announcing shell would only say an exit code).

import { existsSync } from 'node:fs';
import { delimiter } from 'node:path';
import { lookUpCommand, pathOf } from './commandLookup.ts';

/** What a launch failure is told of the launch: its command, the environment it gets and its folder. */
type LaunchAsked = { command: string; env: Readonly<Record<string, string>>; cwd?: string | undefined };

export type LaunchFailureKind = 'command-not-found' | 'permission-denied' | 'cwd-not-found' | 'spawn-failed';

/** Why a server could not be started, worded for the person who configured it. */
export class ServerLaunchError extends Error {
  readonly kind: LaunchFailureKind;
  /** Longer background for the server's log (e.g. every folder searched), kept out of the one-line message. */
  readonly detail: string | undefined;

  constructor(kind: LaunchFailureKind, message: string, detail?: string) {
    super(message);
    this.name = 'ServerLaunchError';
    this.kind = kind;
    this.detail = detail;
  }
}

/**
 * A start that failed for a reason no restart can mend: the command is not there, cannot be run, or its
 * folder is missing (any kind but a spawn failure). Its server waits for the person to fix the definition
 * (which starts it again) or to restart it, instead of restarting on its own.
 */
export function isLastingLaunchFailure(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    if (current instanceof ServerLaunchError) return current.kind !== 'spawn-failed';
  }
  return false;
}

/** Why `launch` cannot start (its command missing or not executable), found before anything is spawned; undefined when it can. */
export function launchProblem(launch: LaunchAsked): ServerLaunchError | undefined {
  // A missing folder first: a sandbox or launcher around the server would otherwise be named in its place.
  if (launch.cwd !== undefined && !existsSync(launch.cwd)) return cwdNotFound(launch);
  const problem = commandProblem(launch.command, launch.env, launch.cwd);
  return problem ? launchError(Object.assign(new Error(problem), { code: problem }), launch) : undefined;
}

export function launchError(error: NodeJS.ErrnoException, launch: LaunchAsked): ServerLaunchError {
  const command = launch.command;
  // spawn reports a missing working directory as ENOENT on the command, which would send people hunting the wrong thing.
  if (error.code === 'ENOENT' && launch.cwd !== undefined && !existsSync(launch.cwd)) return cwdNotFound(launch);
  if (error.code === 'ENOENT') {
    if (/[\\/]/.test(command)) return new ServerLaunchError('command-not-found', `command not found: "${command}" (no such file)`);
    const folders = pathOf(launch.env).split(delimiter).filter(Boolean);
    return new ServerLaunchError(
      'command-not-found',
      `command not found: "${command}" (not in any of the ${folders.length} folders on PATH)`,
      `PATH searched for "${command}": ${folders.join(delimiter) || '(empty)'}`,
    );
  }
  if (error.code === 'EACCES') {
    return new ServerLaunchError('permission-denied', `permission denied: "${command}" cannot be executed (is it marked executable?)`);
  }
  return new ServerLaunchError('spawn-failed', `could not start "${command}": ${error.code ?? error.message}`);
}

function cwdNotFound(launch: LaunchAsked): ServerLaunchError {
  return new ServerLaunchError('cwd-not-found', `working directory not found: "${launch.cwd}" (configured for "${launch.command}")`);
}

/**
 * Why the command could not be executed ('ENOENT', 'EACCES'), checked as execvp would look it up, for
 * launches through the announcing shell (whose own failure would only be an exit code).
 */
export function commandProblem(command: string, env: Readonly<Record<string, string>>, cwd: string | undefined): 'ENOENT' | 'EACCES' | undefined {
  const lookup = lookUpCommand(command, env, cwd);
  return 'found' in lookup ? undefined : lookup.problem;
}
