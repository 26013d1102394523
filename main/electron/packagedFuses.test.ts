// Reads the fuses of the app `npm run dist` packaged (in release/) back from its binary, with the same
// library electron-builder flips them with, and holds them to electron-builder.yml. Where nothing was
// packaged (a machine that cannot download Electron), it skips and says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { loadPackagingConfig, projectRoot } from './packagingConfig.ts';

const config = await loadPackagingConfig();
const release = path.join(projectRoot, String(config.directories?.output ?? 'dist'));
// Where electron-builder leaves each OS's unpacked app before making the installers.
const candidates = [
  path.join(release, 'linux-unpacked', 'atrium'),
  path.join(release, 'linux-arm64-unpacked', 'atrium'),
  path.join(release, 'mac-universal', 'Atrium.app'),
  path.join(release, 'mac-arm64', 'Atrium.app'),
  path.join(release, 'mac', 'Atrium.app'),
  path.join(release, 'win-unpacked', 'Atrium.exe'),
];
const packaged = candidates.filter((file) => existsSync(file));
const skip = packaged.length === 0 ? `no packaged build in ${path.relative(projectRoot, release)}/ (run "npm run dist" on a machine that can download Electron's binaries)` : false;
if (skip) console.log(`packagedFuses.test.ts skipped: ${skip}`);

/** electron-builder.yml's `electronFuses` keys, as @electron/fuses numbers them. */
const fuseIndex: Record<string, FuseV1Options> = {
  runAsNode: FuseV1Options.RunAsNode,
  enableCookieEncryption: FuseV1Options.EnableCookieEncryption,
  enableNodeOptionsEnvironmentVariable: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
  enableNodeCliInspectArguments: FuseV1Options.EnableNodeCliInspectArguments,
  enableEmbeddedAsarIntegrityValidation: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
  onlyLoadAppFromAsar: FuseV1Options.OnlyLoadAppFromAsar,
  loadBrowserProcessSpecificV8Snapshot: FuseV1Options.LoadBrowserProcessSpecificV8Snapshot,
  grantFileProtocolExtraPrivileges: FuseV1Options.GrantFileProtocolExtraPrivileges,
};

test('the packaged app’s binary carries the fuses electron-builder.yml asks for', { skip }, async () => {
  const wanted = Object.entries(config.electronFuses ?? {}).filter(([key]) => key in fuseIndex);
  assert.ok(wanted.length >= 6, 'electron-builder.yml sets the fuses');
  for (const binary of packaged) {
    const wire = await getCurrentFuseWire(binary);
    for (const [key, on] of wanted) {
      const state = wire[fuseIndex[key]!];
      assert.equal(state, on ? FuseState.ENABLE : FuseState.DISABLE, `${path.relative(projectRoot, binary)}: ${key} should be ${on ? 'on' : 'off'}`);
    }
  }
});
