// Where bundles live once installed: one folder each under the data folder's `bundles/`, named by the
// bundle's name, version and hash, unpacked (by @anthropic-ai/mcpb) into a staging folder beside it and
// moved into place whole, so a folder that exists is a whole bundle. Nothing is written outside
// `bundles/`; a bundle that fails to unpack leaves nothing behind, and one whose last server the person
// removed goes with it.

import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { InstallError } from '../installError.ts';
import type { BundleRead } from './bundleArchive.ts';
import type { ServerDefinition } from '../../config/serverConfig.ts';

export function bundlesFolder(home: string): string {
  return join(home, 'bundles');
}

/** The folder a bundle unpacks to: the same bundle (same hash) always the same folder. */
export function bundleFolder(home: string, read: BundleRead): string {
  const name = `${read.manifest.name}-${read.manifest.version}`.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100);
  return join(bundlesFolder(home), `${name}-${read.sha256.slice(0, 12)}`);
}

/** Unpacks the bundle into its folder, unless a whole copy of it is there already. */
export async function unpackBundle(home: string, read: BundleRead): Promise<string> {
  const folder = bundleFolder(home, read);
  if (await stat(folder).then((found) => found.isDirectory(), () => false)) return folder;
  const root = bundlesFolder(home);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const token = randomUUID();
  const incoming = join(root, `.incoming-${token}.mcpb`);
  const staging = join(root, `.staging-${token}`);
  try {
    await writeFile(incoming, read.archive, { mode: 0o600 });
    const { unpackExtension } = await import('@anthropic-ai/mcpb');
    const unpacked = await unpackExtension({ mcpbPath: incoming, outputDir: staging, silent: true });
    if (!unpacked) throw new InstallError('failed', `the bundle ${read.manifest.name} could not be unpacked; nothing of it was kept`);
    await rename(staging, folder).catch(async (error: NodeJS.ErrnoException) => {
      // Another Atrium unpacked the same bundle meanwhile: its whole copy is as good as this one.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
    return folder;
  } finally {
    await rm(incoming, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/** The bundle folder a server runs from (its working folder, as installed), or undefined for any other server. */
export function bundleFolderOf(home: string, server: ServerDefinition): string | undefined {
  if (server.transport !== 'stdio' || server.cwd === undefined) return undefined;
  // Resolved first: a folder written by hand as `bundles/..` is the data folder itself, never a bundle's.
  const folder = resolve(server.cwd);
  return dirname(folder) === resolve(bundlesFolder(home)) ? folder : undefined;
}

/**
 * The bundle a removed server ran from is deleted, unless a server still configured runs from it (the same
 * bundle installed under another name). Returns the folder deleted, if any.
 */
export async function removeUnusedBundle(home: string, removed: ServerDefinition, remaining: readonly ServerDefinition[]): Promise<string | undefined> {
  const folder = bundleFolderOf(home, removed);
  if (folder === undefined || remaining.some((server) => bundleFolderOf(home, server) === folder)) return undefined;
  await rm(folder, { recursive: true, force: true });
  return folder;
}
