import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseProvider } from './providerSettings.ts';

const settings = {
  providers: [
    { id: 'claude', kind: 'anthropic' as const, apiKeySecret: 'anthropic', models: ['claude-a', 'claude-b'] },
    { id: 'local', kind: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1:11434/v1', models: ['llama'] },
  ],
  default: { provider: 'local', model: 'llama' },
};

test('the default provider and model apply unless flags choose others', () => {
  assert.deepEqual(chooseProvider(settings, {}).model, 'llama');
  assert.equal(chooseProvider(settings, { provider: 'claude' }).model, 'claude-a');
  assert.equal(chooseProvider(settings, { provider: 'claude', model: 'claude-b' }).model, 'claude-b');
});

test('a provider kind given as a flag works without configuration; its key comes from the secret of that name', () => {
  const { config, model } = chooseProvider({ providers: [] }, { provider: 'openai', model: 'gpt-x', baseUrl: 'http://127.0.0.1:9/v1' });
  assert.deepEqual(config, { id: 'openai', kind: 'openai', apiKeySecret: 'openai', baseUrl: 'http://127.0.0.1:9/v1' });
  assert.equal(model, 'gpt-x');
});

test('missing choices are errors that say what to do', () => {
  assert.throws(() => chooseProvider({ providers: [] }, {}), /no LLM provider is configured/);
  assert.throws(() => chooseProvider(settings, { provider: 'nope' }), /no provider "nope".*claude, local/);
  assert.throws(() => chooseProvider({ providers: [] }, { provider: 'openai-compatible', model: 'x' }), /needs a base URL/);
  assert.throws(() => chooseProvider({ providers: [] }, { provider: 'anthropic' }), /no model chosen/);
});
