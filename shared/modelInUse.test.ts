import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProviderView } from './contract.ts';
import { modelInUse } from './modelInUse.ts';

const providers: ProviderView[] = [
  { id: 'work', kind: 'anthropic', models: ['claude-a', 'claude-b'], defaultModel: 'claude-a' },
  { id: 'fake', kind: 'anthropic', models: ['fake-1', 'fake-2'], defaultModel: 'fake-1', isDefault: true },
];

test('a new conversation shows the host default, not the first provider', () => {
  assert.deepEqual(modelInUse(providers, null, undefined), { provider: 'fake', model: 'fake-1' });
});

test("a conversation shows its own model, and the person's pick wins over it", () => {
  assert.deepEqual(modelInUse(providers, { providerId: 'work', model: 'claude-b' }, undefined), { provider: 'work', model: 'claude-b' });
  assert.deepEqual(modelInUse(providers, { providerId: 'work', model: 'claude-b' }, { provider: 'fake', model: 'fake-2' }), { provider: 'fake', model: 'fake-2' });
});

test('a conversation whose provider was removed shows the default, which is what the host would use', () => {
  assert.deepEqual(modelInUse(providers, { providerId: 'gone', model: 'old' }, undefined), { provider: 'fake', model: 'fake-1' });
});

test('nothing is shown when no provider offers a model', () => {
  assert.equal(modelInUse([], null, undefined), null);
  assert.equal(modelInUse([{ id: 'empty', kind: 'openai', models: [], isDefault: true }], null, undefined), null);
});

test("a pick whose provider was removed gives way to the conversation's own model or the default", () => {
  assert.deepEqual(modelInUse(providers, { providerId: 'work', model: 'claude-b' }, { provider: 'gone', model: 'old' }), { provider: 'work', model: 'claude-b' });
  assert.deepEqual(modelInUse(providers, null, { provider: 'gone', model: 'old' }), { provider: 'fake', model: 'fake-1' });
});
