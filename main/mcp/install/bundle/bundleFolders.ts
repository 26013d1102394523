// Where bundles live once installed: one folder each under the data folder's `bundles/`, named by the
// bundle's name, version and hash, unpacked (by @anthropic-ai/mcpb) into a staging folder beside it and
// moved into place whole, so a folder that exists is a whole bundle. Nothing is written outside
// `bundles/`; a bundle that fails to unpack leaves nothing behind.

import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InstallError } from '../installError.ts';
import type { BundleRead } from './bundleArchive.ts';

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
