import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planKeyEdit } from './providerKeyEdit.ts';
import type { KeyEdit } from './providerKeyEdit.ts';

const openai = { kind: 'openai' as const, address: 'https://api.openai.com/v1' };
const ollama = { kind: 'openai-compatible' as const, address: 'http://127.0.0.1:11434/v1' };
const stored = { source: 'stored' as const, setFor: openai.address };
const edit = (change: Partial<KeyEdit>): KeyEdit => ({ before: openai, after: openai, key: stored, variables: ['OPENAI_API_KEY', 'ATRIUM_SECRET_OPENAI'], asked: {}, ...change });

test('the same address and API: the key stays', () => {
  assert.deepEqual(planKeyEdit(edit({})), { act: 'none', outcome: 'unchanged' });
});

test('another address, or another API at the same one: the stored key is removed unless the person agreed', () => {
  assert.deepEqual(planKeyEdit(edit({ after: ollama })), { act: 'remove', outcome: 'dropped' });
  assert.deepEqual(planKeyEdit(edit({ after: { ...openai, kind: 'openai-responses' } })), { act: 'remove', outcome: 'dropped' });
  assert.deepEqual(planKeyEdit(edit({ after: ollama, asked: { keepKey: { from: openai.address, to: ollama.address } } })), { act: 'send', address: ollama.address, outcome: 'moved' });
});

test('an agreement that names other addresses than the edit moves the key between is refused, naming them', () => {
  const plan = planKeyEdit(edit({ after: ollama, asked: { keepKey: { from: 'http://127.0.0.1:1234/v1', to: ollama.address } } }));
  assert.deepEqual(plan, {
    problem: { field: 'keepKey', message: 'The key is set for api.openai.com and would now go to 127.0.0.1:11434, not what you agreed to: look at the form again and confirm.' },
  });
});

test('a key set for another address than the provider has (changed outside Settings) moves only with an agreement from that address', () => {
  const held = { source: 'stored' as const, setFor: 'http://127.0.0.1:8080/v1' };
  assert.deepEqual(planKeyEdit(edit({ key: held })), { act: 'remove', outcome: 'dropped' });
  assert.deepEqual(planKeyEdit(edit({ key: held, asked: { keepKey: { from: held.setFor, to: openai.address } } })), { act: 'send', address: openai.address, outcome: 'moved' });
});

test('a key stored before addresses were kept counts as set for where its provider pointed', () => {
  const legacy = { source: 'stored' as const, setFor: undefined };
  assert.deepEqual(planKeyEdit(edit({ key: legacy })), { act: 'none', outcome: 'unchanged' });
  assert.deepEqual(planKeyEdit(edit({ key: legacy, after: ollama })), { act: 'remove', outcome: 'dropped' });
});

test('a key typed replaces the stored one and is set for the new address; "remove key" removes it; not both', () => {
  assert.deepEqual(planKeyEdit(edit({ after: ollama, asked: { key: 'sk-new' } })), { act: 'set', key: 'sk-new', address: ollama.address, outcome: 'replaced' });
  assert.deepEqual(planKeyEdit(edit({ asked: { removeKey: true } })), { act: 'remove', outcome: 'removed' });
  assert.deepEqual(planKeyEdit(edit({ key: { source: 'none' }, asked: { removeKey: true } })), { act: 'none', outcome: 'unchanged' });
  assert.equal((planKeyEdit(edit({ asked: { key: 'sk-new', removeKey: true } })) as { problem: { field: string } }).problem.field, 'key');
});

test('a key from the environment goes wherever the provider points; Settings neither replaces nor removes it', () => {
  const environment = { source: 'environment' as const };
  assert.deepEqual(planKeyEdit(edit({ key: environment, after: ollama })), { act: 'none', outcome: 'unchanged' });
  assert.match((planKeyEdit(edit({ key: environment, asked: { removeKey: true } })) as { problem: { message: string } }).problem.message, /environment \(OPENAI_API_KEY or ATRIUM_SECRET_OPENAI\).*unset it there/);
  assert.match((planKeyEdit(edit({ key: environment, asked: { key: 'sk-typed' } })) as { problem: { message: string } }).problem.message, /used before a key typed here/);
});
