// A bundle is judged before anything of it is written: the valid one reads (and is said to be unsigned),
// and every bad one is refused with a sentence saying what is wrong — a path that leaves its folder, a hash
// that does not match, a manifest that breaks the schema, a file or an unpacked size over the limit, a
// file that is not a zip at all.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { BUNDLE_LIMITS } from '../../../../shared/installs.ts';
import { buildBundle, greeterManifest } from '../../../../e2e/fixtures/bundleFixture.ts';
import { InstallError } from '../installError.ts';
import { readBundle } from './bundleArchive.ts';
import { unpackBundle } from './bundleFolders.ts';

async function refusal(bytes: Uint8Array, sha256?: string): Promise<string> {
  try {
    await readBundle(bytes, sha256);
  } catch (error) {
    assert.ok(error instanceof InstallError, `an InstallError, not ${String(error)}`);
    return error.message;
  }
  assert.fail('the bundle was accepted');
}

const withFiles = (files: Record<string, string>) => zipSync(Object.fromEntries(Object.entries({ 'manifest.json': JSON.stringify(greeterManifest), ...files }).map(([name, text]) => [name, strToU8(text)])));

describe('a bundle read before anything is written', () => {
  test('the valid greeter reads: its manifest, its hash, and that it is unsigned', async () => {
    const bytes = buildBundle();
    const read = await readBundle(bytes, createHash('sha256').update(bytes).digest('hex').toUpperCase());
    assert.equal(read.manifest.name, 'greeter-bundle');
    assert.equal(read.signature, 'unsigned');
    assert.equal(read.sha256, createHash('sha256').update(bytes).digest('hex'));
  });

  test('an entry that climbs out of its folder', async () => {
    assert.match(await refusal(buildBundle('escape')), /holds a file whose path leaves the folder it unpacks to \("\.\.\/\.\.\/escaped-from-bundle\.txt"\): it was refused and nothing of it was written/);
  });

  for (const [label, name] of [
    ['an absolute path', '/tmp/atrium-absolute.txt'],
    ['a Windows drive', 'C:/Windows/evil.dll'],
    ["Windows' separator climbing out", '..\\evil.txt'],
    ['a folder that climbs out in the middle', 'server/../../evil.txt'],
  ] as const) {
    test(label, async () => assert.match(await refusal(withFiles({ [name]: 'x' })), /path leaves the folder it unpacks to/));
  }

  test('a hash that does not match the one given', async () => {
    assert.match(await refusal(buildBundle(), '0'.repeat(64)), /^the bundle's SHA-256 is [0-9a-f]{64}, not the 0{64} expected: it is not the file that was published/);
  });

  test('a manifest that breaks the MCPB schema, one of an unknown version, none, or not JSON', async () => {
    // The manifest's fields by their names, as its author wrote them: no schema path, no "Required".
    assert.equal(
      await refusal(buildBundle('invalid-manifest')),
      `the bundle's manifest.json is not valid, so it cannot be installed (its author can mend it): "entry_point" in "server" is missing; "mcp_config" in "server" is missing`,
    );
    assert.match(await refusal(withFiles({ 'manifest.json': JSON.stringify({ ...greeterManifest, tools: [{ name: 'greet' }, { name: 7 }] }) })), /: "name" of item 2 of "tools": expected string, received number$/);
    assert.match(await refusal(withFiles({ 'manifest.json': JSON.stringify({ ...greeterManifest, manifest_version: '9.9' }) })), /manifest_version "9\.9" is not one Atrium knows/);
    assert.match(await refusal(zipSync({ 'server/index.mjs': strToU8('') })), /has no manifest\.json at its top/);
    assert.match(await refusal(withFiles({ 'manifest.json': '{ "name": ' })), /manifest\.json is not valid JSON/);
  });

  test('an empty file is said to be empty', async () => {
    assert.equal(await refusal(new Uint8Array(0)), 'the file is empty, so it is not a bundle');
  });

  test('a file over the size Atrium installs is refused before it is read', async () => {
    assert.match(await refusal(new Uint8Array(BUNDLE_LIMITS.fileBytes + 1)), /^the bundle is 40 MB, over the 40 MB Atrium installs$/);
  });

  test('a bundle whose files say they unpack to more than the limit (a zip bomb) is refused from its directory alone', async () => {
    const zip = withFiles({ 'server/big.bin': 'small' });
    setDeclaredSize(zip, 'server/big.bin', BUNDLE_LIMITS.unpackedBytes + 1);
    assert.match(await refusal(zip), /unpacks to \d+ MB, over the 400 MB Atrium installs/);
  });

  test('a bomb that says its file is small unpacks to no more than it says (50 MB of zeros declared as 10 bytes)', async () => {
    const zip = zipSync({ 'manifest.json': strToU8(JSON.stringify(greeterManifest)), 'server/index.mjs': new Uint8Array(50 * 1024 * 1024) });
    setDeclaredSize(zip, 'server/index.mjs', 10);
    const home = await mkdtemp(join(tmpdir(), 'atrium-bomb-'));
    try {
      const folder = await unpackBundle(home, await readBundle(zip));
      assert.equal((await stat(join(folder, 'server', 'index.mjs'))).size, 10);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  test('a file that is not a zip', async () => {
    assert.match(await refusal(strToU8('this is a text file named .mcpb')), /^the file is not a bundle: it does not read as a zip archive/);
  });
});

/** Rewrites the uncompressed size the zip's central directory declares for one file (as a bomb lies about it, in reverse). */
function setDeclaredSize(zip: Uint8Array, name: string, size: number): void {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = 0; at + 46 <= zip.byteLength; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    if (Buffer.from(zip.subarray(at + 46, at + 46 + nameLength)).toString('utf8') !== name) continue;
    view.setUint32(at + 24, size, true);
    return;
  }
  throw new Error(`${name} is not in the zip's directory`);
}
