import assert from 'node:assert/strict';
import { test } from 'node:test';
import { packageRunnerFailure } from './packageRunnerFailure.ts';

// What npx 11 writes for a package that is not in the registry (copied from a real run).
const npm11 = [
  'npm error code E404',
  'npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-everythingg - Not found',
  'npm error 404',
  "npm error 404  The requested resource '@modelcontextprotocol/server-everythingg@*' could not be found or you do not have permission to access it.",
  'npm error 404',
  'npm error 404 Note that you can also install from a',
  'npm error 404 tarball, folder, http url, or git url.',
  'npm error A complete log of this run can be found in: /home/ada/.npm/_logs/2026-11-27T07_20_49_435Z-debug-0.log',
];

test("npx's 404 names the package that was not found", () => {
  assert.equal(packageRunnerFailure(npm11), 'npm could not find the package @modelcontextprotocol/server-everythingg: check its name');
  assert.equal(packageRunnerFailure(["npm ERR! 404  'mcp-server-fetchh@1.0.0' is not in this registry."]), 'npm could not find the package mcp-server-fetchh: check its name');
  assert.equal(packageRunnerFailure(["npm error 404  'server-x@*' is not in this registry."]), 'npm could not find the package server-x: check its name');
});

test('the request line alone, or pnpm’s words, name it too', () => {
  assert.equal(packageRunnerFailure(['npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fmcp - Not found']), 'npm could not find the package @acme/mcp: check its name');
  assert.equal(packageRunnerFailure([' ERR_PNPM_FETCH_404  GET https://registry.npmjs.org/mcp-thing: Not Found - 404']), 'npm could not find the package mcp-thing: check its name');
});

test('other failures are not taken for a missing package', () => {
  assert.equal(packageRunnerFailure(['npm error code ENOTCACHED', 'Error: Cannot find module ./server.js', 'npm error 404 Note that you can also install from a']), undefined);
});
