import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAnswer } from '../../../shared/formAnswers.ts';
import { InvalidFormError, maskSecrets, readForm } from './elicitationForm.ts';

const form = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', title: 'Email' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    plan: { type: 'string', oneOf: [{ const: 'free', title: 'Free' }, { const: 'pro', title: 'Pro' }], default: 'free' },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 },
    newsletter: { type: 'boolean', default: false },
    accessToken: { type: 'string', description: 'Your GitHub token' },
  },
  required: ['email', 'age'],
};

test('a flat form becomes fields a dialog can show, with secret-looking ones flagged', () => {
  const fields = readForm(form);
  assert.deepEqual(
    fields.map((f) => [f.name, f.kind, f.required, f.secretLooking]),
    [
      ['email', 'text', true, false],
      ['age', 'integer', true, false],
      ['plan', 'choice', false, false],
      ['tags', 'choices', false, false],
      ['newsletter', 'boolean', false, false],
      ['accessToken', 'text', false, true],
    ],
  );
  assert.deepEqual(fields[2]?.options, [{ value: 'free', label: 'Free' }, { value: 'pro', label: 'Pro' }]);
  for (const secret of [{ password: { type: 'string' } }, { key: { type: 'string', title: 'API key' } }, { pin: { type: 'string' } }, { value: { type: 'string', description: 'Enter your passphrase' } }]) {
    assert.equal(readForm({ type: 'object', properties: secret })[0]?.secretLooking, true, JSON.stringify(secret));
  }
  assert.equal(readForm({ type: 'object', properties: { tokenizer: { type: 'string', enum: ['bpe'] } } })[0]?.secretLooking, false, 'a choice is never a secret');
});

test('forms the specification does not allow are refused with the reason', () => {
  const bad: [unknown, RegExp][] = [
    [{ type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } }, /properties\.address|flat object/],
    [{ type: 'object', properties: { list: { type: 'array', items: { type: 'number' } } } }, /flat object/],
    [{ type: 'object', properties: { x: { $ref: '#/defs/x' } } }, /flat object/],
    [{ type: 'array' }, /flat object/],
    [{ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, /requires "b"/],
    ['not a schema', /flat object/],
  ];
  for (const [schema, message] of bad) assert.throws(() => readForm(schema), (error: Error) => error instanceof InvalidFormError && message.test(error.message), JSON.stringify(schema));
});

test('an answer is checked against the form: types, formats, ranges, choices, required and unknown fields', () => {
  const messages = (content: unknown) => checkAnswer(form, content)?.map((p) => `${p.field}: ${p.message}`);
  assert.equal(checkAnswer(form, { email: 'ada@example.com', age: 36, plan: 'pro', tags: ['a'] }), undefined);
  assert.deepEqual(messages({ email: 'not-an-email', age: 36 }), ['email: Email must be an email address, like ada@example.com.']);
  assert.deepEqual(messages({ email: 'ada@example.com', age: 200 }), ['age: age must be at most 150.']);
  assert.deepEqual(messages({ email: 'ada@example.com', age: '36' }), ['age: age must be a whole number.']);
  assert.deepEqual(messages({ email: 'ada@example.com', age: 1, plan: 'gold' }), ['plan: plan: choose one of the options offered.']);
  assert.deepEqual(messages({ age: 1 }), ['email: Email is required: fill it in.']);
  assert.deepEqual(messages({ email: 'ada@example.com', age: 1, extra: 1 }), ['extra: "extra" is not a field of this form.']);
});

test('every wrong field of an answer is reported at once, by the title the person sees', () => {
  const problems = checkAnswer(form, { email: 'nope', age: -1, tags: ['a', 'b', 'a'] });
  assert.deepEqual(problems, [
    { field: 'email', message: 'Email must be an email address, like ada@example.com.' },
    { field: 'age', message: 'age must be at least 0.' },
    { field: 'tags', message: 'tags: choose at most 2.' },
  ]);
});

test('secret-looking answers are masked for the history', () => {
  assert.deepEqual(maskSecrets(readForm(form), { email: 'ada@example.com', accessToken: 'ghp_123' }), { email: 'ada@example.com', accessToken: '[secret]' });
});
