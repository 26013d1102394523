// What a local server may touch, derived at each start from its definition and the facts of the moment
// (sandboxFacts.ts finds them on disk): the conversation's roots to read and write, its own install
// folder and working folder to read, the cache its package runner needs, and a temporary folder of its
// own. The home folder, Atrium's data folder (even inside a root), the shared temporary folders and the
// well-known credential stores are hidden. No network but the hosts its config allows (and the package
// registry its runner fetches from). Pure, so the start dialog, the card, the install consent and the
// launch all say and do the same.

import type { StdioServerDefinition } from '../../config/serverConfig.ts';
import type { SandboxSetting } from './sandboxSetting.ts';

/** What is true of this machine and this moment, found on disk (every path a real path). */
export interface SandboxFacts {
  platform: NodeJS.Platform;
  /** The person's home folder. */
  home: string;
  /** Atrium's data folder: never readable nor writable by a server. */
  dataFolder: string;
  /** The roots servers see now: the folders among them that exist. */
  roots: string[];
  /** The folders the server's program and scripts are installed in (those the profile would otherwise hide). */
  installFolders: string[];
  /** The working folder its definition names, when it has one. */
  workingFolder?: string;
  /** Files and folders its arguments name (real paths, existing): the person wrote them in its definition. */
  argumentPaths?: string[];
  /** Credential stores and browser profiles found in the home folder: hidden even inside a root. */
  privatePlaces: string[];
  /** Temporary folders other programs share: hidden (the server gets one of its own). */
  sharedTemp: string[];
  /** Why the sandbox cannot run on this machine now (a tool missing), and what to install; absent when it can. */
  unavailable?: { reason: string; install: string };
}

export type SandboxProfile =
  | {
      kind: 'sandboxed';
      /** Readable: everything outside `hidden`, and these inside it. */
      readable: string[];
      /** Writable: these alone (and its own temporary folder). */
      writable: string[];
      hidden: string[];
      /** The hosts it may reach, in the allowed-domains grammar (name, *.name, address, each with :port). */
      hosts: string[];
      /** The package runner's cache, among `writable`, named apart so the person sees why. */
      caches: string[];
      /** The registry among `hosts` its runner fetches packages from. */
      registries: string[];
    }
  | { kind: 'unsandboxed'; why: 'opted-out' | 'container' | 'unsupported-os' }
  | { kind: 'unavailable'; reason: string; install: string };

const PACKAGE_RUNNERS: Record<string, { caches: (home: string, env: Record<string, string>) => string[]; registries: (env: Record<string, string>) => string[] }> = {
  npx: {
    caches: (home, env) => [`${env.npm_config_cache ?? `${home}/.npm`}/_npx`],
    registries: (env) => [hostOf(env.npm_config_registry) ?? 'registry.npmjs.org'],
  },
  uvx: {
    caches: (home, env) => [env.UV_CACHE_DIR ?? `${home}/.cache/uv`, `${home}/.local/share/uv`],
    registries: (env) => [hostOf(env.UV_INDEX_URL) ?? 'pypi.org', 'files.pythonhosted.org'],
  },
};

type Unsandboxed = Extract<SandboxProfile, { kind: 'unsandboxed' }>;

/**
 * Why the server runs without the sandbox whatever the facts on disk: its definition opts out, it runs a
 * container, or the OS has no sandbox. Undefined when it would be sandboxed. Decided before any fact is
 * gathered, so a server that runs unsandboxed costs its start no look at the disk or probe of bubblewrap.
 */
export function unsandboxedByDefinition(server: StdioServerDefinition & { sandbox?: SandboxSetting }, platform: NodeJS.Platform): Unsandboxed | undefined {
  if (server.sandbox === false) return { kind: 'unsandboxed', why: 'opted-out' };
  if (runsContainer(server)) return { kind: 'unsandboxed', why: 'container' };
  if (platform !== 'linux' && platform !== 'darwin') return { kind: 'unsandboxed', why: 'unsupported-os' };
  return undefined;
}

/** The profile the server starts with: sandboxed, or why not. */
export function deriveSandboxProfile(server: StdioServerDefinition & { sandbox?: SandboxSetting }, facts: SandboxFacts): SandboxProfile {
  const unsandboxed = unsandboxedByDefinition(server, facts.platform);
  if (unsandboxed) return unsandboxed;
  if (facts.unavailable) return { kind: 'unavailable', ...facts.unavailable };
  const allowances = server.sandbox || {};
  const expand = (path: string) => (path === '~' ? facts.home : path.startsWith('~/') ? `${facts.home}${path.slice(1)}` : path);
  // Atrium's data folder is never opened, whatever a root or the config says.
  const open = (path: string) => !isAtOrInside(path, facts.dataFolder);
  const allowRead = (allowances.filesystem?.allowRead ?? []).map(expand);
  const allowWrite = (allowances.filesystem?.allowWrite ?? []).map(expand);
  const runner = PACKAGE_RUNNERS[packageRunner(server)];
  const caches = runner ? runner.caches(facts.home, server.env) : [];
  const registries = runner ? runner.registries(server.env) : [];
  const roots = facts.roots.filter(open);
  const writable = unique([...roots, ...caches, ...allowWrite].filter(open));
  // A credential store stays hidden inside a root, unless the person allowed that very place.
  const privatePlaces = facts.privatePlaces.filter((place) => ![...writable, ...allowRead].some((path) => isAtOrInside(path, place)));
  const secret = (path: string) => privatePlaces.some((place) => isAtOrInside(path, place) || isAtOrInside(place, path));
  // What its arguments name is read (never written), but not a credential store: that takes an allowRead.
  const named = (facts.argumentPaths ?? []).filter((path) => !secret(path));
  // A bundle Atrium installed lives in the data folder's bundles/: its server reads its own folder there
  // (read-only), and nothing else of the data folder.
  const bundles = `${facts.dataFolder.replace(/\/+$/, '')}/bundles`;
  const ownBundle = facts.installFolders.filter((folder) => folder !== bundles && isAtOrInside(folder, bundles));
  const readable = unique([...[...writable, ...facts.installFolders, ...(facts.workingFolder ? [facts.workingFolder] : []), ...named, ...allowRead].filter(open), ...ownBundle]);
  const hidden = unique([facts.home, facts.dataFolder, ...facts.sharedTemp, ...privatePlaces, ...(allowances.filesystem?.denyRead ?? []).map(expand)]);
  const hosts = unique([...(allowances.network?.allowedDomains ?? []), ...registries]);
  return { kind: 'sandboxed', readable, writable, hidden, hosts, caches, registries };
}

/** "What the server will be able to touch", one line each, for the start dialog, the card, `atrium servers` and an install's consent. */
export function describeSandboxProfile(profile: SandboxProfile, facts?: Pick<SandboxFacts, 'home' | 'dataFolder'>): string[] {
  switch (profile.kind) {
    case 'unsandboxed':
    case 'unavailable':
      return ['Everything you can: all your files (your SSH keys, Atrium’s own data folder) and any address on the network.'];
    case 'sandboxed': {
      // A sandboxed profile is always derived from facts (unsandboxedByDefinition decides without them).
      if (!facts) throw new Error('a sandboxed profile is described with the facts it was derived from');
      const show = (path: string) => tilde(path, facts.home);
      const list = (paths: string[]) => paths.map(show).join(', ');
      const { writable, readable, caches, registries } = profile;
      const folders = writable.filter((path) => !caches.includes(path));
      const readOnly = readable.filter((path) => !writable.includes(path));
      const others = profile.hosts.filter((host) => !registries.includes(host));
      return [
        folders.length ? `Reads and changes: ${list(folders)}.` : 'Reads and changes none of your folders (the conversation has no roots).',
        ...(readOnly.length ? [`Reads only: ${list(readOnly)}.`] : []),
        'Reads, without changing, the system’s programs and settings (outside your home folder).',
        ...(caches.length ? [`Its package runner’s cache: ${list(caches)}.`] : []),
        'A temporary folder of its own (what other programs keep in the shared one is out of reach).',
        `Hidden from it: your home folder (${show(facts.home)}) but what is listed, Atrium’s data folder (${show(facts.dataFolder)}), your SSH, cloud and browser credentials.`,
        others.length || registries.length
          ? `Network: only ${[...others, ...registries.map((host) => `${host} (its package registry)`)].join(', ')}.`
          : 'Network: none.',
      ];
    }
  }
}

/** Why a server runs without the sandbox (or cannot start in it), in one sentence. */
export function sandboxReason(profile: SandboxProfile): string {
  switch (profile.kind) {
    case 'sandboxed':
      return 'Sandboxed: it reaches only what is listed.';
    case 'unavailable':
      return `Cannot start in its sandbox: ${profile.reason}`;
    case 'unsandboxed':
      return {
        'opted-out': 'Not sandboxed: you chose to run it without the sandbox ("sandbox": false).',
        container: 'Not sandboxed: it runs a container (docker run), which this sandbox cannot hold; the container runtime isolates it as far as its options say.',
        'unsupported-os': 'Not sandboxed: Atrium’s sandbox runs on Linux and macOS only.',
      }[profile.why];
  }
}

/** `npx` or `uvx` when the server is run by that package runner (`npm exec` and `pnpm dlx` count as npx). */
export function packageRunner(server: Pick<StdioServerDefinition, 'command' | 'args'>): string {
  const name = programName(server.command);
  if (name === 'npx' || (name === 'npm' && (server.args[0] === 'exec' || server.args[0] === 'x')) || (name === 'pnpm' && server.args[0] === 'dlx')) return 'npx';
  if (name === 'uvx' || (name === 'uv' && server.args[0] === 'tool' && server.args[1] === 'run')) return 'uvx';
  return '';
}

/** Whether the server is a container the command runs (`docker run`, `podman run`): the sandbox cannot hold one. */
export function runsContainer(server: Pick<StdioServerDefinition, 'command' | 'args'>): boolean {
  const name = programName(server.command);
  return (name === 'docker' || name === 'podman' || name === 'nerdctl') && server.args.some((arg) => arg === 'run');
}

export function isAtOrInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/** A path under the home folder written from `~`, as the person knows it. */
export function tilde(path: string, home: string): string {
  return home !== '/' && isAtOrInside(path, home) ? `~${path.slice(home.length)}` : path;
}

function programName(command: string): string {
  return (command.split(/[\\/]/).pop() ?? command).toLowerCase().replace(/\.(exe|cmd|bat)$/, '');
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
