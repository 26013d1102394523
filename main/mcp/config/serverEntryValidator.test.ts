// The servers.json entry's validator is compiled ahead of time (scripts/generateOwnValidators.ts): the committed code must
// be what the schema compiles to now, and must judge entries exactly as the schema compiled at run time does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { serverEntrySchema, SERVER_ENTRY_OPTIONS } from './serverConfig.ts';
import precompiled from './serverEntryValidator.generated.mjs';
import { ownSchemaValidator } from '../../ownSchemas.ts';
import { serverEntryValidatorFile, serverEntryValidatorSource } from '../../../scripts/generateOwnValidators.ts';

test('the committed servers.json validator is what serverEntrySchema compiles to now', () => {
  assert.equal(readFileSync(serverEntryValidatorFile, 'utf8'), serverEntryValidatorSource(), 'serverEntrySchema changed: run `node scripts/generateOwnValidators.ts` and commit the file it writes');
});

test('the precompiled validator finds the same mistakes as the schema compiled at run time', () => {
  const compiledNow = ownSchemaValidator(serverEntrySchema, SERVER_ENTRY_OPTIONS);
  const entries: unknown[] = [
    { command: 'npx', args: ['-y', 'server'], env: { KEY: 'value' } },
    { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer {secret:token}' }, type: 'http' },
    { command: '', args: 'not-a-list', env: { PORT: 80 } },
    { command: 'node', disabledTools: 'some', alwaysLoadedTools: [''], requestTimeoutMs: 5, maxMessageBytes: 1.5, timeout: 0 },
    { command: 'node', roots: ['x'.repeat(4097)], sandbox: { filesystem: { allowWrite: [7] } } },
    { url: 'https://example.com', oauth: { clientId: 3, scopes: 'all' } },
    { type: 'carrier-pigeon', command: 'node', disabled: 'yes', trusted: 1 },
  ];
  for (const entry of entries) {
    const verdict = compiledNow(entry);
    assert.equal(precompiled(entry), verdict, JSON.stringify(entry));
    assert.deepEqual(precompiled.errors ?? null, compiledNow.errors ?? null, JSON.stringify(entry));
  }
  assert.ok(entries.some((entry) => !precompiled(entry)) && entries.some((entry) => precompiled(entry)));
});
