// The environment a stdio server is launched with. A server is third-party code, so it gets a small safe
// base instead of the host's whole environment (which holds API keys and tokens), plus what its config sets.
import { delimiter as pathDelimiter, dirname, join, sep } from 'node:path';
import { readLoginShellPath } from './loginShellPath.ts';

const POSIX_KEYS = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'TMPDIR', 'TEMP', 'TMP']);
const POSIX_PREFIXES = ['LC_', 'XDG_'];

// Windows looks environment names up case-insensitively, so these are compared upper-cased.
const WINDOWS_KEYS = new Set([
  'APPDATA', 'COMSPEC', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE',
  'PROGRAMDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP',
  'USERNAME', 'USERPROFILE', 'WINDIR',
]);

let loginShellPath: Promise<string | undefined> | undefined;
let loginShellPathCacheFile: string | undefined;
let launchedFromDesktopMenu = false;
let atriumFolder: string | undefined;

/** The host variables a server may see without its config asking for them. */
export function pickSafeBaseEnvironment(hostEnv: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const base: Record<string, string> = {};
  for (const [key, value] of Object.entries(hostEnv)) {
    if (value === undefined) continue;
    // Bash exports functions as `()…` values; passing them on lets the host's shell setup run inside the server.
    if (value.startsWith('()')) continue;
    if (platform === 'win32' ? WINDOWS_KEYS.has(key.toUpperCase()) : isSafePosixKey(key)) base[key] = value;
  }
  return base;
}

function isSafePosixKey(key: string): boolean {
  return POSIX_KEYS.has(key) || POSIX_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** Joins PATH lists in order, keeping the first occurrence of each entry and dropping empty ones. */
export function mergePathLists(lists: ReadonlyArray<string | undefined>, delimiter: string = pathDelimiter): string {
  const seen = new Set<string>();
  for (const list of lists) {
    for (const entry of list?.split(delimiter) ?? []) {
      if (entry !== '' && !seen.has(entry)) seen.add(entry);
    }
  }
  return [...seen].join(delimiter);
}

/**
 * Where the login shell's PATH is kept between runs. The host core names a file in its data folder; the
 * PATH is a fact about the user, so the first host in a process decides for all of them.
 */
export function keepLoginShellPathIn(file: string): void {
  loginShellPathCacheFile ??= file;
}

/**
 * Where Atrium itself is installed. Started with `npm run …`, it inherits a PATH that npm opened with
 * Atrium's own `node_modules/.bin` (and its parent folders'): those are Atrium's tools, never the
 * person's, so a server's command is not looked up there (a dev copy of a server would stand in for theirs).
 */
export function keepAtriumsToolsOutOfServersPath(folder: string): void {
  atriumFolder ??= folder;
}

/** The inherited PATH without the `node_modules/.bin` folders of Atrium's folder and the folders above it. */
export function withoutAtriumsTools(inherited: string | undefined, folder: string | undefined = atriumFolder, delimiter: string = pathDelimiter): string | undefined {
  if (inherited === undefined || folder === undefined) return inherited;
  const own = new Set<string>();
  for (let at = folder.replace(/[\\/]+$/, ''); ; at = dirname(at)) {
    own.add(join(at, 'node_modules', '.bin'));
    if (dirname(at) === at) break;
  }
  return inherited
    .split(delimiter)
    .filter((entry) => !own.has(entry.replace(/[\\/]+$/, '') || sep))
    .join(delimiter);
}

/**
 * This process was launched from a desktop menu, not from a shell: the PATH it inherited is the bare
 * system one, so the login shell's leads (see searchPathOf). Said by the front end, once per process.
 */
export function launchedFromDesktop(): void {
  launchedFromDesktopMenu = true;
}

/**
 * The PATH a server gets, from the login shell's and the one this process inherited. Launched from a
 * shell (the command line, the browser mode, the app run from a terminal), the inherited PATH is what the
 * person set up there — `nvm use`, a project's tools, npm's own — and leads, the login shell's entries
 * after it. Launched from a desktop menu, the inherited PATH is the system's bare one (whose `node` may be
 * the distribution's old one), so the login shell's leads.
 */
export function searchPathOf(loginShell: string | undefined, inherited: string | undefined, fromDesktop: boolean, delimiter: string = pathDelimiter): string {
  return mergePathLists(fromDesktop ? [loginShell, inherited] : [inherited, loginShell], delimiter);
}

/**
 * The PATH the user's login shell sets up (loginShellPath.ts), asked for only when a stdio server is about
 * to start, once per process; undefined on Windows (GUI apps there see the full PATH) or when the shell
 * fails or is too slow.
 */
export function resolveLoginShellPath(): Promise<string | undefined> {
  loginShellPath ??=
    process.platform === 'win32' ? Promise.resolve(undefined) : readLoginShellPath(loginShellPathCacheFile ? { cacheFile: loginShellPathCacheFile } : {});
  return loginShellPath;
}

/** The PATH a server is launched with unless its config sets one; also what a "command not found" message names. */
export async function resolvedSearchPath(hostEnv: NodeJS.ProcessEnv = process.env): Promise<string> {
  return searchPathOf(await resolveLoginShellPath(), withoutAtriumsTools(hostEnv.PATH), launchedFromDesktopMenu);
}

/** The complete environment for a server: the safe base, the resolved PATH, then the server's configured env on top. */
export async function buildServerEnvironment(
  configuredEnv: Readonly<Record<string, string>> = {},
  hostEnv: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
  const env = pickSafeBaseEnvironment(hostEnv);
  const path = await resolvedSearchPath(hostEnv);
  if (path !== '') env[pathKeyOf(env)] = path;
  return { ...env, ...configuredEnv };
}

// On Windows the variable is usually spelled `Path`; writing a second `PATH` beside it would be ambiguous.
function pathKeyOf(env: Record<string, string>): string {
  return Object.keys(env).find((key) => key.toUpperCase() === 'PATH') ?? 'PATH';
}
