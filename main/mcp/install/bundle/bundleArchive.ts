// An MCP bundle (.mcpb: a zip with manifest.json) read and judged before anything of it is written: its
// size, its SHA-256 against the one expected, every entry's path (none may leave the folder it unpacks
// to: no `..`, no absolute path), what it unpacks to, and its manifest against the MCPB schema of its
// version (@anthropic-ai/mcpb's). A signature is noted, never believed: no MCPB signature verifies
// anywhere today, so a signed bundle is said to carry a signature Atrium did not check.

import { createHash } from 'node:crypto';
import type { unzipSync as Unzip } from 'fflate';
import type { McpbManifestAny, MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb';
import { BUNDLE_LIMITS } from '../../../../shared/installs.ts';
import { InstallError } from '../installError.ts';

export interface BundleRead {
  sha256: string;
  signature: 'unsigned' | 'not-checked';
  manifest: McpbManifestAny;
  /** The zip without its signature block: what unpacks. */
  archive: Uint8Array;
}

const MAX_MANIFEST_BYTES = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export async function readBundle(bytes: Uint8Array, expectedSha256?: string): Promise<BundleRead> {
  if (bytes.byteLength === 0) throw new InstallError('invalid_params', 'the file is empty, so it is not a bundle');
  if (bytes.byteLength > BUNDLE_LIMITS.fileBytes) {
    throw new InstallError('invalid_params', `the bundle is ${megabytes(bytes.byteLength)}, over the ${megabytes(BUNDLE_LIMITS.fileBytes)} Atrium installs`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (expectedSha256 !== undefined && expectedSha256.toLowerCase() !== sha256) {
    throw new InstallError('invalid_params', `the bundle's SHA-256 is ${sha256}, not the ${expectedSha256.toLowerCase()} expected: it is not the file that was published, so nothing of it was installed`);
  }
  // Loaded when a bundle is read, not at every start: fflate builds its tables as it loads (some 3 ms).
  const [mcpb, { unzipSync }] = await Promise.all([import('@anthropic-ai/mcpb'), import('fflate')]);
  const { originalContent, pkcs7Signature } = mcpb.extractSignatureBlock(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const archive = new Uint8Array(originalContent);
  checkEntries(archive, unzipSync);
  const manifest = validManifest(readManifest(archive, unzipSync), mcpb.MANIFEST_SCHEMAS);
  return { sha256, signature: pkcs7Signature ? 'not-checked' : 'unsigned', manifest, archive };
}

/** Every entry's path and the whole's size, from the zip's directory, before anything is decompressed. */
function checkEntries(archive: Uint8Array, unzipSync: typeof Unzip): void {
  let count = 0;
  let total = 0;
  const escaping: string[] = [];
  try {
    unzipSync(archive, {
      filter: (file) => {
        count++;
        total += file.originalSize;
        if (escapes(file.name)) escaping.push(file.name);
        return false;
      },
    });
  } catch (error) {
    throw new InstallError('invalid_params', `the file is not a bundle: it does not read as a zip archive (${(error as Error).message})`);
  }
  if (escaping.length > 0) {
    throw new InstallError('invalid_params', `the bundle holds ${escaping.length === 1 ? 'a file' : 'files'} whose path leaves the folder it unpacks to (${escaping.slice(0, 3).map((name) => JSON.stringify(name)).join(', ')}): it was refused and nothing of it was written`);
  }
  if (count > BUNDLE_LIMITS.entries) throw new InstallError('invalid_params', `the bundle holds ${count} files, over the ${BUNDLE_LIMITS.entries} Atrium installs`);
  if (total > BUNDLE_LIMITS.unpackedBytes) throw new InstallError('invalid_params', `the bundle unpacks to ${megabytes(total)}, over the ${megabytes(BUNDLE_LIMITS.unpackedBytes)} Atrium installs`);
}

/** A path that is absolute, names a drive, goes up a folder, or uses Windows' separator (which could). */
function escapes(name: string): boolean {
  if (name.includes('\0') || name.includes('\\')) return true;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return true;
  return name.split('/').some((part) => part === '..');
}

function readManifest(archive: Uint8Array, unzipSync: typeof Unzip): unknown {
  let found: Uint8Array | undefined;
  try {
    const files = unzipSync(archive, { filter: (file) => file.name === 'manifest.json' && file.originalSize <= MAX_MANIFEST_BYTES });
    found = files['manifest.json'];
  } catch (error) {
    throw new InstallError('invalid_params', `the bundle's manifest.json could not be unpacked (${(error as Error).message})`);
  }
  if (!found) throw new InstallError('invalid_params', 'the bundle has no manifest.json at its top (or one over 1 MB): it is not an MCP bundle');
  try {
    return JSON.parse(Buffer.from(found).toString('utf8')) as unknown;
  } catch {
    throw new InstallError('invalid_params', 'the bundle\'s manifest.json is not valid JSON');
  }
}

type ManifestSchemas = typeof MANIFEST_SCHEMAS;

function validManifest(data: unknown, schemas: ManifestSchemas): McpbManifestAny {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const version = record.manifest_version ?? record.dxt_version;
  if (typeof version !== 'string' || !Object.hasOwn(schemas, version)) {
    throw new InstallError('invalid_params', `the bundle's manifest is not valid: its manifest_version ${JSON.stringify(version ?? null)} is not one Atrium knows (${Object.keys(schemas).join(', ')})`);
  }
  const result = schemas[version as keyof ManifestSchemas].safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 3).map(manifestIssue);
    throw new InstallError('invalid_params', `the bundle's manifest.json is not valid, so it cannot be installed (its author can mend it): ${issues.join('; ')}`);
  }
  return result.data as McpbManifestAny;
}

/**
 * One problem of a manifest in the manifest's own terms: `"entry_point" in "server" is missing`, `"name"
 * in item 2 of "tools": expected string` — its fields by their names, not a schema's path.
 */
function manifestIssue(issue: { path: readonly (string | number)[]; message: string; code?: string; received?: unknown }): string {
  const field = [...issue.path]
    .reverse()
    .map((part) => (typeof part === 'number' ? `item ${part + 1}` : JSON.stringify(part)))
    .join(' in ')
    .replace(/ in (item \d+)/g, ' of $1')
    .replace(/(item \d+) in /g, '$1 of ');
  const missing = issue.code === 'invalid_type' && issue.received === 'undefined';
  const where = field === '' ? 'the manifest' : field;
  return missing ? `${where} is missing` : `${where}: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
}
