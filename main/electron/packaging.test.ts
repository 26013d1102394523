// The packaging as electron-builder reads it: the targets the issue asks for, asar, the fuses, the
// sample server unpacked, and icons that exist at the sizes each OS needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Configuration, TargetConfiguration } from 'electron-builder';
import { appId } from './appIdentity.ts';
import { bundledSampleServer } from './bundledSampleServer.ts';
import { loadPackagingConfig, projectRoot } from './packagingConfig.ts';

const config: Configuration = await loadPackagingConfig();

/** Width and height from a PNG's IHDR chunk. */
async function pngSize(file: string): Promise<{ width: number; height: number }> {
  const bytes = await readFile(file);
  assert.ok(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${file} is a PNG`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function targetNames(targets: unknown): { name: string; arch: unknown }[] {
  return (targets as (string | TargetConfiguration)[]).map((t) => (typeof t === 'string' ? { name: t, arch: undefined } : { name: t.target, arch: t.arch }));
}

test('Atrium is packaged under its app id, in an asar archive, from the built dist/ only', () => {
  assert.equal(config.appId, appId);
  assert.equal(config.productName, 'Atrium');
  assert.equal(config.asar, true);
  assert.deepEqual(config.files, [{ filter: ['dist/**', '!dist/**/*.map', 'package.json'] }]);
});

test('the targets: Linux AppImage and deb, macOS a universal dmg, Windows nsis', () => {
  assert.deepEqual(targetNames(config.linux?.target).map((t) => t.name), ['AppImage', 'deb']);
  assert.deepEqual(targetNames(config.mac?.target), [{ name: 'dmg', arch: ['universal'] }]);
  assert.deepEqual(targetNames(config.win?.target).map((t) => t.name), ['nsis']);
});

test('the fuses flipped at package time close Node-as-a-backdoor and load only the checked asar', () => {
  assert.deepEqual(config.electronFuses, {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  });
});

test('the sample server the app runs with a real node is unpacked from the asar', () => {
  const packaged = bundledSampleServer(path.join('/opt/Atrium/resources/app.asar', 'dist', 'electron')).args[0]!;
  const inApp = path.relative('/opt/Atrium/resources/app.asar.unpacked', packaged).split(path.sep).join('/');
  assert.equal(inApp, 'dist/sampleServer/sampleServer.mjs');
  assert.ok((config.asarUnpack as string[]).includes('dist/sampleServer/**'));
});

test('every icon exists at the size its name says: Linux 16 to 1024, macOS 1024, Windows 256', async () => {
  const linuxDir = path.join(projectRoot, String(config.linux?.icon));
  const files = (await readdir(linuxDir)).filter((name) => name.endsWith('.png')).sort((a, b) => parseInt(a) - parseInt(b));
  assert.deepEqual(files, ['16x16.png', '32x32.png', '48x48.png', '64x64.png', '128x128.png', '256x256.png', '512x512.png', '1024x1024.png']);
  for (const name of files) {
    const side = parseInt(name);
    assert.deepEqual(await pngSize(path.join(linuxDir, name)), { width: side, height: side }, name);
  }
  // electron-builder converts a png of 512 or more into .icns, and one of 256 or more into .ico.
  const mac = await pngSize(path.join(projectRoot, String(config.mac?.icon)));
  assert.ok(mac.width >= 1024 && mac.height === mac.width, 'the macOS icon is a square png of at least 1024');
  const win = await pngSize(path.join(projectRoot, String(config.win?.icon)));
  assert.ok(win.width >= 256 && win.height === win.width, 'the Windows icon is a square png of at least 256');
});
