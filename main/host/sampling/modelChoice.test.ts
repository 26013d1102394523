import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseModel, traitsOf } from './modelChoice.ts';

const models = ['claude-haiku-4', 'claude-sonnet-4', 'claude-opus-4'];

test('hints are tried in order as substrings of the available models', () => {
  assert.equal(chooseModel({ hints: [{ name: 'gpt' }, { name: 'OPUS' }, { name: 'haiku' }] }, models, 'claude-sonnet-4').model, 'claude-opus-4');
});

test('without a matching hint, the priorities pick over the models; the default wins a tie', () => {
  const cheap = chooseModel({ hints: [{ name: 'gpt-4o' }], costPriority: 1, speedPriority: 0.5 }, models, 'claude-sonnet-4');
  assert.equal(cheap.model, 'claude-haiku-4');
  assert.match(cheap.why, /no model matches the server's hints \(gpt-4o\); best fit for the server's priorities/);
  assert.equal(chooseModel({ intelligencePriority: 1 }, models, 'claude-sonnet-4').model, 'claude-opus-4');
  assert.equal(chooseModel({ costPriority: 0.5, intelligencePriority: 0.5 }, ['a-model', 'b-model'], 'b-model').model, 'b-model');
  assert.deepEqual(chooseModel(undefined, models, 'claude-sonnet-4'), { model: 'claude-sonnet-4', why: 'the server gave no model hints; using the default' });
});

test("the person's configured traits override what the name suggests", () => {
  assert.equal(traitsOf('claude-opus-4').intelligence > traitsOf('claude-haiku-4').intelligence, true);
  const traits = { 'local-llama': { cost: 0, speed: 1, intelligence: 0.9 } };
  assert.equal(chooseModel({ intelligencePriority: 1, costPriority: 1 }, [...models, 'local-llama'], 'claude-sonnet-4', traits).model, 'local-llama');
});

test('out-of-range priorities from a server are clamped, not trusted', () => {
  assert.equal(chooseModel({ costPriority: 1e9, intelligencePriority: -5 }, models, 'claude-sonnet-4').model, 'claude-haiku-4');
});
