// A bundle made into a server: its `user_config` is the form the person fills (a `sensitive` value goes to
// Atrium's encrypted store and the definition names it; a `directory` value becomes one of the server's
// roots), and its `mcp_config` with those values filled in (by @anthropic-ai/mcpb, as Claude Desktop
// does) is the command line, run from the folder the bundle was unpacked to under Atrium's data folder.

import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, sep } from 'node:path';
import type { McpbManifestAny } from '@anthropic-ai/mcpb';
import type { BundlePlan, InstallInput } from '../../../../shared/installs.ts';
import type { StdioServerDefinition } from '../../config/serverConfig.ts';
import { secretReference, serverSecretName } from '../../config/secretReferences.ts';
import { InstallError } from '../installError.ts';
import { FieldProblemsError } from '../../../../shared/fieldProblems.ts';
import type { BundleRead } from './bundleArchive.ts';

type ConfigOption = NonNullable<McpbManifestAny['user_config']>[string];
type ConfigValue = string | number | boolean | string[];

export interface BundleServer {
  definition: StdioServerDefinition;
  secrets: Map<string, string>;
  inputs: InstallInput[];
  roots: string[];
}

/** The folders a bundle's settings may name by variable, as Claude Desktop gives them. */
function systemFolders(): Record<string, string> {
  const home = homedir();
  return { HOME: home, DESKTOP: join(home, 'Desktop'), DOCUMENTS: join(home, 'Documents'), DOWNLOADS: join(home, 'Downloads') };
}

export function bundleInputs(manifest: McpbManifestAny): InstallInput[] {
  return Object.entries(manifest.user_config ?? {}).map(([key, option]) => ({
    key,
    kind: 'setting',
    title: option.title,
    description: option.description,
    required: option.required === true,
    secret: option.sensitive === true,
    format: option.type,
    ...(option.multiple ? { multiple: true } : {}),
    ...(option.default !== undefined ? { default: Array.isArray(option.default) ? option.default.join('\n') : String(option.default) } : {}),
  }));
}

/** What the bundle is and asks for; which servers run it already is the installer's to add. */
export function bundlePlan(read: BundleRead): Omit<BundlePlan, 'installed'> {
  const { manifest } = read;
  const config = manifest.server.mcp_config;
  return {
    name: manifest.name,
    ...(manifest.display_name ? { displayName: manifest.display_name } : {}),
    version: manifest.version,
    description: manifest.description,
    ...(manifest.author?.name ? { author: manifest.author.name } : {}),
    sha256: read.sha256,
    signature: read.signature,
    inputs: bundleInputs(manifest),
    suggestedId: manifest.name,
    runs: [config.command, ...(config.args ?? [])].join(' '),
  };
}

/** The server the bundle unpacked in `folder` runs with the person's answers (several values of one setting: one per line). */
export async function bundleServer(read: BundleRead, folder: string, answers: Readonly<Record<string, string>>, serverId: string): Promise<BundleServer> {
  const { manifest } = read;
  const secrets = new Map<string, string>();
  const roots: string[] = [];
  const userConfig: Record<string, ConfigValue> = {};
  const asked = Object.keys(manifest.user_config ?? {});
  const unknown = Object.keys(answers).filter((key) => !asked.includes(key));
  if (unknown.length > 0) throw new InstallError('invalid_params', `${manifest.name} has no setting named ${unknown.join(', ')}${asked.length ? `; its settings are ${asked.join(', ')}` : '; it has none'}`);
  for (const [key, option] of Object.entries(manifest.user_config ?? {})) {
    const value = await settingValue(key, option, answers[key]);
    if (value === undefined) continue;
    if (option.type === 'directory') roots.push(...(Array.isArray(value) ? value : [String(value)]));
    if (option.sensitive) {
      const name = serverSecretName(serverId, key);
      secrets.set(name, Array.isArray(value) ? value.join('\n') : String(value));
      userConfig[key] = secretReference(name);
    } else {
      userConfig[key] = value;
    }
  }
  const { getMcpConfigForManifest } = await import('@anthropic-ai/mcpb');
  const config = await getMcpConfigForManifest({ manifest, extensionPath: folder, systemDirs: systemFolders(), userConfig, pathSeparator: sep });
  if (!config) throw new InstallError('invalid_params', `${manifest.name} could not be set up: a required setting is missing`);
  return {
    definition: { id: serverId, disabled: false, transport: 'stdio', command: config.command, args: config.args ?? [], env: config.env ?? {}, cwd: folder, ...(roots.length ? { roots } : {}) },
    secrets,
    inputs: bundleInputs(manifest),
    roots,
  };
}

/** One setting's value: the person's answer (or its default), checked against its type; undefined when optional and not given. */
async function settingValue(key: string, option: ConfigOption, given: string | undefined): Promise<ConfigValue | undefined> {
  const label = `the setting ${option.title || key}`;
  const fallback = option.default === undefined ? undefined : Array.isArray(option.default) ? option.default.join('\n') : String(option.default);
  const text = given !== undefined && given.trim() !== '' ? given : fallback;
  if (text === undefined || text.trim() === '') {
    if (option.required) throw new FieldProblemsError([{ field: `values.${key}`, message: `The setting ${option.title || key} is required (${option.description})` }]);
    return undefined;
  }
  const parts = option.multiple ? text.split('\n').map((part) => part.trim()).filter(Boolean) : [text];
  switch (option.type) {
    case 'number': {
      const number = Number(text);
      if (!Number.isFinite(number)) throw new InstallError('invalid_params', `${label} must be a number, not "${text}"`);
      if ((option.min !== undefined && number < option.min) || (option.max !== undefined && number > option.max)) {
        throw new InstallError('invalid_params', `${label} must be between ${option.min ?? '−∞'} and ${option.max ?? '∞'}, not ${number}`);
      }
      return number;
    }
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw new InstallError('invalid_params', `${label} must be true or false, not "${text}"`);
      return text === 'true';
    case 'directory':
    case 'file': {
      const paths = await Promise.all(parts.map((part) => existingPath(label, expandFolders(part), option.type === 'directory')));
      return option.multiple ? paths : paths[0];
    }
    default:
      return option.multiple ? parts : text;
  }
}

/** `~/x` and `${HOME}/x` (a manifest's defaults use them) as whole paths. */
function expandFolders(path: string): string {
  const folders = systemFolders();
  const expanded = path.replace(/\$\{(HOME|DESKTOP|DOCUMENTS|DOWNLOADS)\}/g, (_whole, name: string) => folders[name] ?? '');
  return expanded === '~' || expanded.startsWith('~/') ? join(homedir(), expanded.slice(1)) : expanded;
}

async function existingPath(label: string, path: string, folder: boolean): Promise<string> {
  if (!isAbsolute(path)) throw new InstallError('invalid_params', `${label} must be a whole path (starting at the top of the disk), not "${path}"`);
  const found = await stat(path).catch(() => undefined);
  if (!found) throw new InstallError('invalid_params', `${label}: ${path} does not exist`);
  if (folder && !found.isDirectory()) throw new InstallError('invalid_params', `${label}: ${path} is not a folder`);
  if (!folder && !found.isFile()) throw new InstallError('invalid_params', `${label}: ${path} is not a file`);
  return path;
}
