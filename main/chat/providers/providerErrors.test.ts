// The shared error sentences with stand-in SDK error classes: the per-provider wordings (Anthropic's 529,
// OpenAI's quota, a compatible server's hints, a keyless 401) and key scrubbing. The providers' own
// integration tests cover the same through the real SDKs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LlmError } from '../llmTypes.ts';
import { scrubKey, streamCutShort, streamFailure, toLlmError, toolArguments } from './providerErrors.ts';
import type { ProviderErrorContext } from './providerErrors.ts';

class ApiError extends Error {
  readonly status: number | undefined;
  readonly body: { message?: string } | undefined;
  constructor(status: number | undefined, body?: { message?: string }) {
    super(`${status ?? ''} raw SDK message`);
    this.status = status;
    this.body = body;
  }
}
class ConnectionError extends ApiError {
  constructor(cause: Error) {
    super(undefined);
    this.cause = cause;
  }
}
class TimeoutError extends ConnectionError {}

const KEY = 'sk-test-0123456789';

function context(extra: Partial<ProviderErrorContext<ApiError>> = {}): ProviderErrorContext<ApiError> {
  return {
    label: 'Test provider "t"',
    baseURL: 'http://127.0.0.1:9/v1',
    key: KEY,
    apiKeySecret: 'test',
    model: 'm-1',
    sdk: { APIError: ApiError, APIConnectionError: ConnectionError, APIConnectionTimeoutError: TimeoutError },
    serverMessage: (error) => error.body?.message,
    unreachableHint: 'Check the address and your network.',
    ...extra,
  };
}

test('an HTTP status becomes a sentence that names the provider, carries the status and scrubs the key', () => {
  const error = toLlmError('t', new ApiError(401, { message: `bad key ${KEY}` }), context());
  assert.ok(error instanceof LlmError);
  assert.equal(error.status, 401);
  assert.equal(error.message, 'Test provider "t" rejected the API key (HTTP 401): bad key ***. Check the key stored as "test".');
  assert.equal(toLlmError('t', new ApiError(404), context()).message, 'Test provider "t" does not know model "m-1" (HTTP 404): 404 raw SDK message.');
  assert.equal(toLlmError('t', new ApiError(429, { message: 'slow down' }), context()).message, 'Test provider "t" is rate-limiting requests (HTTP 429): slow down.');
  assert.equal(toLlmError('t', new ApiError(529, { message: 'Overloaded' }), context()).message, 'Test provider "t" had a server error (HTTP 529): Overloaded.');
  assert.equal(toLlmError('t', new ApiError(422, { message: 'no' }), context()).message, 'Test provider "t" refused the conversation as it was sent (HTTP 422). It said: “no”');
});

test("a request the provider refused says so in words first; what it said of its own request format is quoted as its words", () => {
  const refused = toLlmError('t', new ApiError(400, { message: 'messages.1.content.0.text: Input should be a valid string' }), context()).message;
  assert.equal(refused, 'Test provider "t" refused the conversation as it was sent (HTTP 400). It said: “messages.1.content.0.text: Input should be a valid string”');
});

test('per-provider wordings: own status meanings, a keyless 401, advice after a 404 and when unreachable', () => {
  const own = context({ statusWording: { 529: (says) => ` is overloaded (HTTP 529)${says} Try again shortly.` } });
  assert.equal(toLlmError('t', new ApiError(529, { message: 'Overloaded' }), own).message, 'Test provider "t" is overloaded (HTTP 529): Overloaded. Try again shortly.');
  const local = context({ key: undefined, keyless: true, notFoundHint: ' Is the path right?', unreachableHint: 'Is the server running?' });
  assert.match(toLlmError('t', new ApiError(401), local).message, / wants an API key \(HTTP 401\).*"apiKeySecret"\.$/);
  assert.match(toLlmError('t', new ApiError(404), local).message, /\(HTTP 404\): 404 raw SDK message\. Is the path right\?$/);
  const refused = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
  const unreachable = toLlmError('t', new ConnectionError(new Error('fetch failed', { cause: refused })), local);
  assert.equal(unreachable.message, 'Test provider "t": cannot reach http://127.0.0.1:9/v1 (connection refused). Is the server running?');
  assert.equal(toLlmError('t', new TimeoutError(new Error('late')), local).message, 'Test provider "t": timed out waiting for http://127.0.0.1:9/v1.');
});

test('a stream that fails part-way: LlmErrors pass through, API errors are mapped, anything else broke off', () => {
  const own = new LlmError('t', 'already said');
  assert.equal(streamFailure('t', own, context()), own);
  assert.equal(streamFailure('t', new ApiError(undefined, { message: 'oops' }), context()).message, 'Test provider "t": the reply stream failed: oops.');
  assert.equal(streamFailure('t', new TypeError(`terminated ${KEY}`), context()).message, 'Test provider "t": the reply from http://127.0.0.1:9/v1 broke off (terminated ***).');
  assert.equal(streamCutShort('t', context()).message, 'Test provider "t": the connection to http://127.0.0.1:9/v1 closed before the reply was complete.');
});

test('tool arguments must parse to an object; scrubKey leaves keys shorter than 4 characters alone', () => {
  assert.deepEqual(toolArguments('t', context(), 'x', '{"a":1}'), { a: 1 });
  assert.throws(() => toolArguments('t', context(), 'x', '[1]'), /model "m-1" called tool "x" with arguments that are not a JSON object \(\[1\]\); the call was not made\./);
  assert.equal(scrubKey(' abc abc ', 'abc'), 'abc abc');
  assert.equal(scrubKey('x'.repeat(301), undefined), `${'x'.repeat(300)}…`);
});
