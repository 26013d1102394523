// The PATH the user's login shell sets up. An app started from a GUI launcher inherits a minimal PATH
// without the user's nvm, Homebrew or ~/.local/bin, which is where `npx`, `uvx` and friends live.
//
// The shell runs as an interactive login shell (that is where most people extend PATH), but in its own
// session with no controlling terminal and stdin closed: an interactive shell that owns the terminal
// takes its foreground, and if it is killed for being slow it never gives it back, leaving Atrium in a
// background process group (terminal questions fail with EIO, Ctrl+C no longer reaches it).
//
// Asking the shell costs a second or more, so the answer is cached in a file, keyed by everything it
// depends on that can be seen cheaply: the shell, its start-up files, HOME and the inherited PATH.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { basename, dirname, join } from 'node:path';

const SHELL_TIME_LIMIT_MS = 3000;
/** A shell that failed or was too slow is asked again after this long, even if nothing changed. */
const FAILURE_REMEMBERED_MS = 60 * 60 * 1000;
const PATH_START_MARKER = '__ATRIUM_PATH_START__';
const PATH_END_MARKER = '__ATRIUM_PATH_END__';

/** What a login shell may read on start, for bash, zsh, fish and sh; a change to any asks the shell again. */
function startupFiles(home: string, env: NodeJS.ProcessEnv): string[] {
  const zdotdir = env.ZDOTDIR || home;
  return [
    '/etc/profile', '/etc/profile.d', '/etc/bash.bashrc', '/etc/bashrc',
    join(home, '.profile'), join(home, '.bash_profile'), join(home, '.bash_login'), join(home, '.bashrc'),
    '/etc/zshenv', '/etc/zprofile', '/etc/zshrc', '/etc/zlogin', '/etc/zsh/zshenv', '/etc/zsh/zprofile', '/etc/zsh/zshrc', '/etc/zsh/zlogin',
    join(zdotdir, '.zshenv'), join(zdotdir, '.zprofile'), join(zdotdir, '.zshrc'), join(zdotdir, '.zlogin'),
    '/etc/fish/config.fish', join(env.XDG_CONFIG_HOME || join(home, '.config'), 'fish', 'config.fish'),
  ];
}

interface CachedAnswer {
  key: string;
  /** The shell's PATH, or null when the shell failed or was too slow. */
  path: string | null;
  at: number;
}

export interface LoginShellPathOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the answer is kept between runs; without it the shell is asked every time. */
  cacheFile?: string;
  timeLimitMs?: number;
}

/** The login shell's PATH, or undefined when there is no shell, it fails, or it takes too long. */
export async function readLoginShellPath(options: LoginShellPathOptions = {}): Promise<string | undefined> {
  const env = options.env ?? process.env;
  const shell = env.SHELL || safeUserShell();
  if (!shell) return undefined;
  const key = options.cacheFile ? await cacheKey(shell, env) : '';
  if (options.cacheFile) {
    const cached = await readCache(options.cacheFile);
    if (cached?.key === key && (cached.path !== null || Date.now() - cached.at < FAILURE_REMEMBERED_MS)) return cached.path ?? undefined;
  }
  const path = await askShell(shell, env, options.timeLimitMs ?? SHELL_TIME_LIMIT_MS);
  if (options.cacheFile) await writeCache(options.cacheFile, { key, path: path ?? null, at: Date.now() });
  return path;
}

function askShell(shell: string, env: NodeJS.ProcessEnv, timeLimitMs: number): Promise<string | undefined> {
  // fish keeps PATH as a list, and `"$PATH"` would join it with spaces.
  const pathExpression = basename(shell) === 'fish' ? '(string join : $PATH)' : '"$PATH"';
  const script = `printf '%s%s%s' '${PATH_START_MARKER}' ${pathExpression} '${PATH_END_MARKER}'`;
  return new Promise((resolve) => {
    let stdout = '';
    let child;
    try {
      child = spawn(shell, ['-ilc', script], {
        // A new session: no controlling terminal, so the shell can neither read from nor take over ours.
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
        // Lets a user's rc file skip slow setup (prompts, version managers' auto-update) for this probe.
        env: { ...env, ATRIUM_RESOLVING_ENVIRONMENT: '1' },
        windowsHide: true,
      });
    } catch {
      resolve(undefined);
      return;
    }
    const shellProcess = child;
    // The whole group goes: a profile's own children (a `sleep`, a version check) must not outlive the probe.
    const timer = setTimeout(() => killGroup(shellProcess.pid), timeLimitMs);
    shellProcess.stdout.setEncoding('utf8');
    shellProcess.stdout.on('data', (chunk: string) => {
      if (stdout.length < 1024 * 1024) stdout += chunk;
    });
    shellProcess.once('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    shellProcess.once('close', () => {
      clearTimeout(timer);
      // rc files may print banners around our output, and a shell that failed may still have printed it.
      const start = stdout.indexOf(PATH_START_MARKER);
      const end = stdout.indexOf(PATH_END_MARKER, start + PATH_START_MARKER.length);
      const path = start === -1 || end === -1 ? '' : stdout.slice(start + PATH_START_MARKER.length, end);
      resolve(path === '' ? undefined : path);
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

async function cacheKey(shell: string, env: NodeJS.ProcessEnv): Promise<string> {
  const home = env.HOME || safeHome();
  const files = [shell, ...startupFiles(home, env)];
  const stamps = await Promise.all(
    files.map(async (file) => {
      try {
        const info = await stat(file);
        return `${file}:${info.mtimeMs}:${info.size}:${info.ino}`;
      } catch {
        return `${file}:absent`;
      }
    }),
  );
  return createHash('sha256').update(JSON.stringify([shell, home, env.PATH ?? '', env.ZDOTDIR ?? '', stamps])).digest('hex');
}

async function readCache(file: string): Promise<CachedAnswer | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<CachedAnswer>;
    if (typeof value.key !== 'string' || typeof value.at !== 'number' || !(typeof value.path === 'string' || value.path === null)) return undefined;
    return value as CachedAnswer;
  } catch {
    return undefined;
  }
}

/** Written whole and renamed into place, so a run that reads it meanwhile never sees half a file. */
async function writeCache(file: string, answer: CachedAnswer): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(answer), { mode: 0o600 });
    await rename(temporary, file);
  } catch {
    // A cache that cannot be written only costs the next run the time of asking the shell again.
  }
}

function safeUserShell(): string | undefined {
  try {
    return userInfo().shell ?? undefined;
  } catch {
    return undefined;
  }
}

function safeHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return '';
  }
}
