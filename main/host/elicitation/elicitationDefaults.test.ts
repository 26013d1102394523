import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElicitationParams } from '../../mcp/connection/connectionServices.ts';
import { fixedElicitation } from '../brokers.ts';
import { checkedElicitation, UnfitAnswerError } from './checkedElicitation.ts';
import { applyElicitationDefaults } from './elicitationDefaults.ts';

const form: ElicitationParams = {
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
      verified: { type: 'boolean', default: true },
      note: { type: 'string' },
    },
  },
};

test('SEP-1034: accepting a form fills every omitted field that has a default', () => {
  const result = applyElicitationDefaults(form, { action: 'accept', content: {} });
  assert.deepEqual(result, { action: 'accept', content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true } });
});

test('SEP-1034: a value the person gave wins over the default', () => {
  const result = applyElicitationDefaults(form, { action: 'accept', content: { name: 'Ada', verified: false } });
  assert.equal(result.content?.name, 'Ada');
  assert.equal(result.content?.verified, false);
  assert.equal(result.content?.age, 30);
});

test('SEP-1034: declining or cancelling sends no content', () => {
  assert.deepEqual(applyElicitationDefaults(form, { action: 'decline' }), { action: 'decline' });
  assert.deepEqual(applyElicitationDefaults(form, { action: 'cancel' }), { action: 'cancel' });
});

test('a URL-mode elicitation has no form and is passed through', () => {
  const params: ElicitationParams = { mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' };
  assert.deepEqual(applyElicitationDefaults(params, { action: 'accept' }), { action: 'accept' });
});

test("a fixed answer is held to the form: defaults fill it, and one that does not fit is not sent", async () => {
  const accepted = await checkedElicitation(fixedElicitation({ action: 'accept', content: {} })).elicit({ serverId: 's', params: form, signal: new AbortController().signal });
  assert.equal(accepted.content?.['status'], 'active');
  const unfit = checkedElicitation(fixedElicitation({ action: 'accept', content: { status: 42 } }));
  await assert.rejects(unfit.elicit({ serverId: 's', params: form, signal: new AbortController().signal }), UnfitAnswerError);
});
