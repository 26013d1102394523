// Finds on disk what a server's sandbox profile is derived from (sandboxProfile.ts): real paths of the
// home folder, Atrium's data folder and the roots; where the server's program and scripts are installed;
// the credential stores present in the home folder; the shared temporary folders; whether the sandbox's
// tools are there.

import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RootEntry } from '../../../../shared/domain.ts';
import type { StdioServerDefinition } from '../../config/serverConfig.ts';
import { resolveLaunch } from '../../launch/launchPin.ts';
import type { SandboxFacts } from './sandboxProfile.ts';
import { isAtOrInside } from './sandboxProfile.ts';
import { checkSandboxTools } from './sandboxTools.ts';
import type { ToolCheck } from './sandboxTools.ts';

/** Credential stores and browser profiles, relative to the home folder: hidden even when a root holds them. */
const PRIVATE_PLACES = [
  '.ssh', '.aws', '.azure', '.gnupg', '.kube', '.docker', '.netrc', '.npmrc', '.pypirc', '.git-credentials', '.password-store',
  '.config/gcloud', '.config/gh', '.local/share/keyrings', '.mozilla', '.thunderbird', '.config/google-chrome', '.config/chromium',
  '.config/BraveSoftware', '.config/microsoft-edge', 'Library/Keychains', 'Library/Cookies', 'Library/Safari',
  'Library/Application Support/Google/Chrome', 'Library/Application Support/Firefox', 'Library/Application Support/BraveSoftware',
];
/** What marks the top of a program's install: its repository, its dependencies, its project file. */
const INSTALL_TOPS = ['.git', 'node_modules', '.venv', 'pyproject.toml'];

export interface FactsContext {
  dataFolder: string;
  roots: readonly RootEntry[];
  /** The environment the server gets (its PATH finds its program). */
  environment: Readonly<Record<string, string>>;
  /** Where it runs when its definition names no folder. */
  defaultFolder: string;
  home?: string;
  platform?: NodeJS.Platform;
  /** Whether the sandbox's tools are there; this machine's by default. */
  tools?: ToolCheck;
}

export async function gatherSandboxFacts(server: StdioServerDefinition, context: FactsContext): Promise<SandboxFacts> {
  const platform = context.platform ?? process.platform;
  const home = real(context.home ?? homedir()) ?? '/';
  const sharedTemp = sharedTemporaryFolders(platform);
  const check = context.tools ?? checkSandboxTools(platform);
  const hiddenAreas = [home, ...sharedTemp];
  const { program, files } = await resolveLaunch(server, async () => context.environment, context.defaultFolder);
  const installFolders = [...(program ? [program] : []), ...Object.keys(files)]
    .flatMap((file) => [installFolderOf(file, hiddenAreas, home), installFolderOf(real(file) ?? file, hiddenAreas, home)])
    .filter((folder): folder is string => folder !== undefined);
  const workingFolder = server.cwd === undefined ? undefined : real(resolve(context.defaultFolder, server.cwd));
  return {
    platform,
    home,
    dataFolder: real(context.dataFolder) ?? context.dataFolder,
    // The workspace's roots, and the folders this server gets as its own (a bundle's folder settings).
    roots: [...new Set([...rootFolders(context.roots), ...(server.roots ?? []).flatMap((folder) => real(folder) ?? [])])],
    installFolders: [...new Set(installFolders)],
    // A working folder that is the home folder (or above it) would open all of it: it stays hidden.
    ...(workingFolder !== undefined && !isAtOrInside(home, workingFolder) ? { workingFolder } : {}),
    argumentPaths: argumentPaths(server.args, home),
    privatePlaces: PRIVATE_PLACES.map((place) => join(home, place)).filter((path) => existsOrLink(path)),
    sharedTemp,
    ...('unavailable' in check ? { unavailable: check.unavailable } : {}),
  };
}

/**
 * The files and folders a server's arguments name by a full path (`/srv/report.pdf`, `--config=/etc/x.json`),
 * as real paths, those that exist; never the home folder or a folder above it, which would open all of it.
 */
function argumentPaths(args: readonly string[], home: string): string[] {
  const paths = args.map((arg) => (arg.startsWith('/') ? arg : /^--?[\w-]+=(\/.*)$/.exec(arg)?.[1])).filter((path): path is string => path !== undefined);
  return [...new Set(paths.map(real).filter((path): path is string => path !== undefined && path !== '/' && !isAtOrInside(home, path)))];
}

/** The roots as the real paths of the folders among them that exist. */
export function rootFolders(roots: readonly RootEntry[]): string[] {
  return roots.flatMap((root) => {
    const path = root.uri.startsWith('file:') ? safeFilePath(root.uri) : undefined;
    const folder = path === undefined ? undefined : real(path);
    return folder === undefined ? [] : [folder];
  });
}

/**
 * The folder a program or script is installed in, within the hidden `area` that holds it: for a program
 * in a `bin` folder, the prefix above it (a Node or Python install keeps its libraries beside `bin`); for
 * a script, the top of its project (its repository, or the folder holding its dependencies), else its own
 * folder. Never the area itself (the home folder, /tmp), nor `~/.local` as a whole.
 */
function installFolderOf(file: string, areas: readonly string[], home: string): string | undefined {
  const area = areas.find((candidate) => isAtOrInside(file, candidate));
  if (area === undefined) return undefined;
  const inside = (path: string) => path !== area && isAtOrInside(path, area);
  const folder = dirname(file);
  if (basename(folder) === 'bin') {
    const prefix = dirname(folder);
    if (inside(prefix) && prefix !== join(home, '.local')) return prefix;
    return inside(folder) ? folder : undefined;
  }
  let top: string | undefined;
  for (let at = folder; inside(at); at = dirname(at)) {
    if (INSTALL_TOPS.some((marker) => existsOrLink(join(at, marker)))) top = at;
    if (existsOrLink(join(at, '.git'))) break;
  }
  const chosen = top ?? folder;
  return inside(chosen) ? chosen : undefined;
}

function sharedTemporaryFolders(platform: NodeJS.Platform): string[] {
  const candidates = platform === 'darwin' ? [tmpdir(), '/tmp', '/var/tmp'] : [tmpdir(), '/tmp', '/var/tmp', ...(process.env.XDG_RUNTIME_DIR ? [process.env.XDG_RUNTIME_DIR] : [])];
  return [...new Set(candidates.map(real).filter((path): path is string => path !== undefined && path !== '/'))];
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function existsOrLink(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return existsSync(path);
  }
}

function safeFilePath(uri: string): string | undefined {
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
