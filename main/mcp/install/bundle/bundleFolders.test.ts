// Which folder a removed server's bundle is: only a folder directly under the data folder's bundles/, as
// an install writes it. A working folder written by hand that only looks like one is never deleted.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ServerDefinition } from '../../config/serverConfig.ts';
import { bundleFolderOf } from './bundleFolders.ts';

const home = '/home/ada/.atrium';
const runningFrom = (cwd: string | undefined): ServerDefinition => ({ id: 'greeter', transport: 'stdio', command: 'node', args: ['server/index.mjs'], env: {}, ...(cwd !== undefined ? { cwd } : {}) }) as ServerDefinition;

test('a bundle is the folder an installed server runs from, directly under bundles/, and nothing else', () => {
  const folder = join(home, 'bundles', 'greeter-bundle-1.0.0-ffae0523384f');
  assert.equal(bundleFolderOf(home, runningFrom(folder)), folder);
  assert.equal(bundleFolderOf(home, runningFrom(`${folder}/`)), folder, 'written with a final slash');
  assert.equal(bundleFolderOf(home, runningFrom(join(home, 'bundles'))), undefined, 'bundles/ itself');
  assert.equal(bundleFolderOf(home, runningFrom(`${home}/bundles/..`)), undefined, 'the data folder, written by hand to look like a bundle');
  assert.equal(bundleFolderOf(home, runningFrom(join(folder, 'server'))), undefined, 'a folder inside a bundle');
  assert.equal(bundleFolderOf(home, runningFrom('/srv/tools')), undefined);
  assert.equal(bundleFolderOf(home, runningFrom(undefined)), undefined);
  assert.equal(bundleFolderOf(home, { id: 'web', transport: 'http', url: 'https://example.com/mcp', headers: {} } as unknown as ServerDefinition), undefined);
});
