import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressesInWords, providerAddress } from './providerAddress.ts';

test("a provider's address: its base URL written one way, else its API's own; an OpenAI-compatible server has none without one", () => {
  assert.equal(providerAddress('anthropic', undefined), 'https://api.anthropic.com');
  assert.equal(providerAddress('openai-responses', undefined), 'https://api.openai.com/v1');
  assert.equal(providerAddress('openai-compatible', 'HTTP://LocalHost:11434/v1/'), 'http://localhost:11434/v1');
  assert.equal(providerAddress('openai-compatible', undefined), undefined);
});

test('two addresses in a sentence: by host where hosts differ, with the path where only paths do, else whole', () => {
  assert.deepEqual(addressesInWords('https://api.openai.com/v1', 'http://127.0.0.1:11434/v1'), ['api.openai.com', '127.0.0.1:11434']);
  assert.deepEqual(addressesInWords('http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/proxy/v1'), ['127.0.0.1:8080/v1', '127.0.0.1:8080/proxy/v1']);
  assert.deepEqual(addressesInWords('https://models.example/v1', 'http://models.example/v1'), ['https://models.example/v1', 'http://models.example/v1']);
});
