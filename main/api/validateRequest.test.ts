import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServerError } from '../mcp/connection/serverError.ts';
import { toApiError, validateRequest } from './validateRequest.ts';
import { DamagedFileError } from '../store/dataFile.ts';

function failure(method: unknown, params: unknown) {
  const result = validateRequest(method, params);
  assert.equal(result.ok, false);
  return result.ok ? assert.fail('expected a failure') : result.error;
}

test('a valid request passes with its method and params', () => {
  const result = validateRequest('setServerEnabled', { serverId: 'files', enabled: false });
  assert.deepEqual(result, { ok: true, method: 'setServerEnabled', params: { serverId: 'files', enabled: false } });
});

test('missing params count as {} for requests without params', () => {
  assert.deepEqual(validateRequest('listServers', undefined), { ok: true, method: 'listServers', params: {} });
});

test('an unknown method is unknown_method, including inherited object keys', () => {
  assert.equal(failure('dropDatabase', {}).code, 'unknown_method');
  assert.match(failure('dropDatabase', {}).message, /"dropDatabase"/);
  assert.equal(failure('__proto__', {}).code, 'unknown_method');
  assert.equal(failure('constructor', {}).code, 'unknown_method');
  assert.equal(failure(42, {}).code, 'unknown_method');
});

test('a missing required field is named', () => {
  const error = failure('restartServer', {});
  assert.equal(error.code, 'invalid_params');
  assert.equal(error.message, 'Invalid params for restartServer: "serverId" is required.');
});

test('a wrongly typed field is named', () => {
  const error = failure('setServerEnabled', { serverId: 'files', enabled: 'yes' });
  assert.equal(error.message, 'Invalid params for setServerEnabled: enabled must be a boolean.');
});

test('an extra field is rejected and named', () => {
  const error = failure('listServers', { sneaky: true });
  assert.equal(error.message, 'Invalid params for listServers: "sneaky" is not allowed.');
});

test('nested fields are named by their path', () => {
  const nested = failure('complete', { serverId: 's', ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: 'b' } });
  assert.match(nested.message, /ref\.type must be one of "ref\/prompt", "ref\/resource"/);
  const indexed = failure('setRoots', { roots: [{ uri: 'file:///a' }, { uri: 7 }] });
  assert.match(indexed.message, /roots\[1\]\.uri must be a string/);
});

test('limits from the schema apply (empty serverId, log limit out of range)', () => {
  assert.match(failure('restartServer', { serverId: '' }).message, /serverId must NOT have fewer than 1 characters/);
  assert.match(failure('getServerLog', { serverId: 's', limit: 0 }).message, /limit must be >= 1/);
});

test('params that are not an object are rejected', () => {
  assert.match(failure('restartServer', 'files').message, /params must be an object/);
  assert.match(failure('restartServer', null).message, /params must be an object/);
});

test('toApiError keeps a contract code and drops the stack', () => {
  const error = Object.assign(new Error('Server "files" is not running'), { code: 'server_unavailable' });
  assert.deepEqual(toApiError(error), { code: 'server_unavailable', message: 'Server "files" is not running' });
});

test('toApiError maps unknown codes to failed and never returns a stack', () => {
  const error = Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' });
  const shape = toApiError(error);
  assert.deepEqual(shape, { code: 'failed', message: 'spawn nope ENOENT' });
  const withStack = toApiError(new Error('boom\n    at thing (file.ts:1:1)\n    at other (file.ts:2:2)'));
  assert.equal(withStack.message, 'boom');
});

test('a change refused because a data file cannot be read names that file, so the window can drop the refusal once it reads again', () => {
  const refused = new DamagedFileError('servers.json cannot be read as it is now, so nothing was changed. Not JSON. Fix it, then try again.', 'servers.json');
  assert.deepEqual(toApiError(refused), { code: 'failed', message: refused.message, dataFile: 'servers.json' });
});

test('toApiError maps aborts and timeouts, and survives odd values', () => {
  assert.equal(toApiError(new DOMException('The operation was aborted', 'AbortError')).code, 'cancelled');
  assert.equal(toApiError(new DOMException('The operation timed out', 'TimeoutError')).code, 'timeout');
  assert.deepEqual(toApiError('plain text'), { code: 'failed', message: 'plain text' });
  assert.equal(toApiError(undefined).message, 'Something went wrong in Atrium.');
  assert.equal(toApiError({}).message, 'Something went wrong in Atrium.');
  assert.equal(toApiError(new Error('x'.repeat(5000))).message.length, 2001);
});

test('a server error reaches the front end with its kind as the API code and its one-line message', () => {
  assert.deepEqual(toApiError(new ServerError('fs', 'timeout', 'fs: tool "x": no answer within the time limit (10 ms)')), {
    code: 'timeout',
    message: 'fs: tool "x": no answer within the time limit (10 ms)',
  });
  assert.equal(toApiError(new ServerError('fs', 'unavailable', 'fs: the server is not ready')).code, 'server_unavailable');
});

test('every labelled field a form got wrong comes back at once, in the form\'s words, with no schema wording', () => {
  const error = failure('saveProvider', { provider: { id: 'My Claude', kind: 'anthropic', baseUrl: 'localhost:11434' } });
  assert.equal(error.code, 'invalid_params');
  assert.deepEqual(error.fields, [
    { field: 'provider.id', message: 'Name may use only lowercase letters, digits and dashes, starting with a letter or digit, up to 40 characters (for example "claude" or "local-llm").' },
    { field: 'provider.baseUrl', message: 'Base URL must start with http:// or https:// (for example http://127.0.0.1:11434/v1).' },
  ]);
  assert.equal(error.message, error.fields?.map((f) => f.message).join(' '));
  assert.doesNotMatch(error.message, /pattern|must match|\^|provider\.id|Invalid params/);
});

test('an empty labelled field is reported as required, and an entry inside a list by its list', () => {
  const empty = failure('saveProvider', { provider: { id: '', kind: 'anthropic', models: ['ok', ''] } });
  assert.deepEqual(
    empty.fields?.map((f) => f.field),
    ['provider.id', 'provider.models'],
  );
  assert.match(empty.fields?.[0]?.message ?? '', /^Name is required: it may use only lowercase letters/);
  assert.match(empty.fields?.[1]?.message ?? '', /^Models has an entry that is empty or too long/);
});

test('toApiError carries well-formed field problems and drops malformed ones', () => {
  const error = Object.assign(new Error('Name is required.'), { code: 'invalid_params', fields: [{ field: 'serverId', message: 'Name is required.' }, { field: 7 }] });
  assert.deepEqual(toApiError(error), { code: 'invalid_params', message: 'Name is required.', fields: [{ field: 'serverId', message: 'Name is required.' }] });
  assert.equal('fields' in toApiError(Object.assign(new Error('x'), { fields: 'no' })), false);
});
