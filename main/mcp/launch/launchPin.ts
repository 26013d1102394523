// What a launch approval pins, and how two pins differ in words. For a local server: its command line,
// working folder and every environment variable (a secret's value by a keyed digest), the file the
// command finds on the PATH the server gets, and the content of the local script files it runs. For a
// remote one: its address and the names of its headers. The definition's part is known at once; where
// the command and scripts lead is looked up on disk, just before the server starts.

import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import type { LaunchView, MissingPath } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import type { SandboxSetting } from '../extensions/sandbox/sandboxSetting.ts';
import { lookUpCommand } from '../stdio/commandLookup.ts';
import type { PinKey } from './pinKey.ts';
import { looksSecret } from './secretShapes.ts';

/** A variable as pinned: its value, or for a secret a keyed digest of it. */
export type PinnedVariable = { value: string } | { secret: string };

export type LaunchPin =
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      cwd?: string;
      env: Record<string, PinnedVariable>;
      /** Where the command is found (null: nowhere). */
      program: string | null;
      /** Each local script it runs (absolute path) → `sha256:<hex>`, or `large:<bytes>:<modified ms>` past LARGEST_HASHED. */
      files: Record<string, string>;
      /** What its sandbox allows beyond the default, or `false` (none): absent for the default, so older pins hold. */
      sandbox?: SandboxSetting;
    }
  | { transport: 'http' | 'sse'; url: string; headerNames: string[] };

/** Where the command and scripts lead, looked up on disk. */
export type Resolution = Pick<Extract<LaunchPin, { transport: 'stdio' }>, 'program' | 'files'>;

/** Scripts larger than this are pinned by size and modification time: hashing them at every start would cost too much. */
export const LARGEST_HASHED = 64 * 1024 * 1024;

const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?|py[wz]?|rb|pl|pm|php|sh|bash|zsh|fish|ps1|psm1|bat|cmd|lua|jar|r|jl|exs?|swift|kts|groovy|wasm)$/i;
/** Programs whose first argument that is a file is the script they run, whatever it is called. */
const INTERPRETER = /^(?:node|nodejs|deno|bun|tsx|ts-node|python[0-9.]*|pypy[0-9.]*|ruby|perl|php|sh|bash|zsh|dash|ksh|fish|lua|rscript|julia|pwsh|powershell)$/i;

/** The part of the pin the definition decides, with `resolution` (or nothing yet) for the rest. */
export function launchPin(server: ServerDefinition, key: PinKey, resolution: Resolution = { program: null, files: {} }): LaunchPin {
  if (server.transport !== 'stdio') return { transport: server.transport, url: server.url, headerNames: Object.keys(server.headers).sort() };
  const env: Record<string, PinnedVariable> = {};
  for (const name of Object.keys(server.env).sort()) {
    const value = server.env[name] ?? '';
    env[name] = looksSecret(name, value) ? { secret: key.sign(`env\0${name}\0${value}`) } : { value };
  }
  return {
    transport: 'stdio',
    command: server.command,
    args: [...server.args],
    ...(server.cwd ? { cwd: server.cwd } : {}),
    env,
    ...(server.sandbox !== undefined ? { sandbox: server.sandbox } : {}),
    ...resolution,
  };
}

/**
 * Finds the program and the scripts a local server runs. `environment` gives the environment the server
 * gets (asked for only when the command is a bare name, to search its PATH); `workingFolder` is where it
 * runs when its definition names no folder, what a relative path in its command line is relative to.
 */
export async function resolveLaunch(server: ServerDefinition, environment: () => Promise<Readonly<Record<string, string>>>, workingFolder: string = process.cwd()): Promise<Resolution> {
  const { program, scripts } = await launchFiles(server, environment, workingFolder);
  const files: Record<string, string> = {};
  for (const path of scripts) files[path] = await contentPin(path);
  return { program, files };
}

/** Where the command is found and the local scripts it runs (absolute, sorted), without reading them. */
export async function launchFiles(server: ServerDefinition, environment: () => Promise<Readonly<Record<string, string>>>, workingFolder: string = process.cwd()): Promise<{ program: string | null; scripts: string[] }> {
  if (server.transport !== 'stdio') return { program: null, scripts: [] };
  const withFolder = /[\\/]/.test(server.command);
  const base = server.cwd ?? workingFolder;
  const lookup = lookUpCommand(server.command, withFolder ? {} : await environment(), base);
  const program = 'found' in lookup ? lookup.found : null;
  const candidates: string[] = [];
  if (program && withFolder && (SCRIPT_FILE.test(program) || (await startsWithShebang(program)))) candidates.push(program);
  const interpreter = INTERPRETER.test(basename(server.command).replace(/\.exe$/i, ''));
  // An interpreter's first argument that is not an option is its script (`python -m module` has none).
  let scriptPosition = interpreter;
  for (const arg of server.args) {
    if (arg === '' || arg.startsWith('-')) continue;
    const named = scriptPosition || SCRIPT_FILE.test(arg);
    scriptPosition = false;
    const path = resolve(base, arg);
    if (named && (await isFile(path))) candidates.push(path);
  }
  return { program, scripts: [...new Set(candidates)].sort() };
}

/**
 * What a local server's definition names that is not on this computer: its working folder, and a file with
 * a script's extension in its arguments, by a full path (or one relative to a working folder it gives). A
 * word that is code (`node -e "…"`) has spaces and is not taken for a path.
 */
export function missingPaths(server: ServerDefinition): MissingPath[] {
  if (server.transport !== 'stdio') return [];
  const missing: MissingPath[] = [];
  if (server.cwd !== undefined && !existsSync(server.cwd)) missing.push({ what: 'working folder', path: server.cwd });
  for (const arg of server.args) {
    if (!SCRIPT_FILE.test(arg) || /\s/.test(arg) || arg.includes('://') || arg.startsWith('-')) continue;
    if (!isAbsolute(arg) && (server.cwd === undefined || !existsSync(server.cwd))) continue;
    const path = resolve(server.cwd ?? '/', arg);
    if (!existsSync(path)) missing.push({ what: 'script', path });
  }
  return missing;
}

/** Whether two pins ask to run the same definition (what is looked up on disk aside). */
export function sameDefinition(a: LaunchPin, b: LaunchPin): boolean {
  return canonical(definitionPart(a)) === canonical(definitionPart(b));
}

/** Whether the program and the scripts are the ones pinned. */
export function sameResolution(a: LaunchPin, b: LaunchPin): boolean {
  return canonical(resolutionPart(a)) === canonical(resolutionPart(b));
}

/** The text a pin's HMAC is taken over: the server's name and its pin, in one canonical spelling. */
export function signedText(serverId: string, pin: LaunchPin): string {
  return canonical({ server: serverId, pin });
}

/** What the person is shown of a pin: never a secret's value, nor its digest. */
export function pinView(pin: LaunchPin): LaunchView {
  if (pin.transport !== 'stdio') return { ...pin, headerNames: [...pin.headerNames] };
  return {
    transport: 'stdio',
    command: pin.command,
    args: [...pin.args],
    env: Object.entries(pin.env).map(([name, variable]) => ('value' in variable ? { name, value: variable.value } : { name })),
    ...(pin.cwd ? { cwd: pin.cwd } : {}),
    program: pin.program,
    scripts: Object.keys(pin.files),
  };
}

/** What differs between the approved pin and the current one, in sentences (the command line itself is shown whole). */
export function describeChanges(approved: LaunchPin, current: LaunchPin): string[] {
  if (approved.transport !== 'stdio' || current.transport !== 'stdio') return [];
  const changes: string[] = [];
  for (const name of new Set([...Object.keys(approved.env), ...Object.keys(current.env)])) {
    const before = approved.env[name];
    const now = current.env[name];
    if (!before) changes.push(`The environment variable ${name} is new.`);
    else if (!now) changes.push(`The environment variable ${name} was removed.`);
    else if ('value' in before && 'value' in now) {
      if (before.value !== now.value) changes.push(`The environment variable ${name} changed from “${before.value}” to “${now.value}”.`);
    } else if (canonical(before) !== canonical(now)) changes.push(`The value of ${name} changed (it looks like a secret, so it is not shown).`);
  }
  if (canonical(approved.sandbox ?? null) !== canonical(current.sandbox ?? null)) changes.push(sandboxChange(approved.sandbox, current.sandbox));
  if ((approved.cwd ?? '') !== (current.cwd ?? '')) changes.push(`The working folder changed from ${approved.cwd ?? 'Atrium’s own'} to ${current.cwd ?? 'Atrium’s own'}.`);
  if (sameCommand(approved, current) && approved.program !== current.program) {
    const where = (program: string | null) => (program === null ? 'found nowhere on the PATH it gets' : program);
    changes.push(`${current.command} is now ${current.program === null ? '' : 'found at '}${where(current.program)}; when you approved it, it was ${where(approved.program)}.`);
  }
  for (const path of new Set([...Object.keys(approved.files), ...Object.keys(current.files)])) {
    const before = approved.files[path];
    const now = current.files[path];
    if (before === now) continue;
    if (before === undefined) changes.push(`It now runs the file ${path}, which was not there when you approved it.`);
    else if (now === undefined) changes.push(`The file ${path} it ran is gone.`);
    else changes.push(`The file ${path} changed since you approved it.`);
  }
  return changes;
}

/** How its sandbox changed, in a sentence. */
function sandboxChange(before: SandboxSetting | undefined, now: SandboxSetting | undefined): string {
  if (now === false) return 'It now runs without the sandbox ("sandbox": false): it can read and change all your files and reach any address.';
  if (before === false) return 'It now runs in its sandbox again.';
  const described = (setting: SandboxSetting | undefined) => (setting === undefined || Object.keys(setting).length === 0 ? 'the default sandbox' : JSON.stringify(setting));
  return `What its sandbox allows changed from ${described(before)} to ${described(now)}.`;
}

function sameCommand(a: LaunchPin, b: LaunchPin): boolean {
  return a.transport === 'stdio' && b.transport === 'stdio' && a.command === b.command && (a.cwd ?? '') === (b.cwd ?? '');
}

function definitionPart(pin: LaunchPin): unknown {
  if (pin.transport !== 'stdio') return pin;
  const { program: _program, files: _files, ...definition } = pin;
  return definition;
}

function resolutionPart(pin: LaunchPin): unknown {
  return pin.transport === 'stdio' ? { program: pin.program, files: pin.files } : {};
}

/** JSON with every object's keys in order, so equal values always have equal text. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() === true;
}

async function startsWithShebang(path: string): Promise<boolean> {
  const stream = createReadStream(path, { start: 0, end: 1 });
  let head = '';
  try {
    for await (const chunk of stream) head += (chunk as Buffer).toString('latin1');
  } catch {
    return false;
  }
  return head === '#!';
}

async function contentPin(path: string): Promise<string> {
  const info = await stat(path);
  if (info.size > LARGEST_HASHED) return `large:${info.size}:${Math.trunc(info.mtimeMs)}`;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}
