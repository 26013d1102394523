import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolApprovalPayload } from './pendingPayloads.ts';
import { conversationAnswerOutlastsCall, lastingAllowReach, lastingTargets, untrustedContentNote } from './approvalReach.ts';

function payload(overrides: Partial<ToolApprovalPayload> = {}): ToolApprovalPayload {
  return {
    tool: { serverId: 'everything', name: 'echo', modelName: 'everything__echo', inputSchema: {}, enabled: true, annotations: { readOnlyHint: true, openWorldHint: false } },
    arguments: {},
    annotationsTrusted: false,
    elevated: false,
    reason: 'every call of a server that is not trusted asks',
    keepsAfterUntrusted: true,
    serverTools: [
      { name: 'echo', readOnly: true, keepsAfterUntrusted: true },
      { name: 'fetch', readOnly: true, keepsAfterUntrusted: false },
      { name: 'wipe', readOnly: false, keepsAfterUntrusted: false },
    ],
    ...overrides,
  };
}

test('“its read-only tools” is offered only when the tool asked about is one of them', () => {
  assert.deepEqual(lastingTargets(payload()), ['tool', 'read-only-tools', 'server']);
  assert.deepEqual(lastingTargets(payload({ tool: { ...payload().tool, name: 'wipe' } })), ['tool', 'server']);
});

test('a lasting answer says, before it is chosen, whether it holds once the conversation holds untrusted content, and for an untrusted server that it takes its word', () => {
  assert.equal(
    lastingAllowReach(payload(), 'tool'),
    'Allowing echo lasts, also once the conversation holds content Atrium does not trust: echo declares it deletes nothing and stays on this computer. That is only what everything says: your answer takes its word.',
  );
  const wipe = payload({ tool: { ...payload().tool, name: 'wipe', annotations: { destructiveHint: true, openWorldHint: false } }, keepsAfterUntrusted: false, annotationsTrusted: true });
  assert.match(lastingAllowReach(wipe, 'tool'), /^Allowing wipe lasts until a conversation holds content Atrium does not trust .*; from then on wipe asks every time in that conversation, because it may delete things\.$/);
  assert.equal(conversationAnswerOutlastsCall(wipe, 'tool'), true);
  assert.equal(
    lastingAllowReach(payload(), 'read-only-tools'),
    'This covers the 2 tools everything marks read-only now (echo, fetch); once a conversation holds content Atrium does not trust, those that may delete things or reach beyond this computer (fetch) ask every time there. A tool it adds or changes later asks first. That is only what everything says: your answer takes its word.',
  );
  assert.match(lastingAllowReach(payload({ annotationsTrusted: true }), 'server'), /^This covers the 3 tools everything lists now; .* \(fetch, wipe\) ask every time there\. A tool it adds or changes later asks first\.$/);
  assert.equal(
    lastingAllowReach(payload({ serverTools: [{ name: 'add', readOnly: true, keepsAfterUntrusted: false }] }), 'read-only-tools'),
    'This covers the tool everything marks read-only now (add); once a conversation holds content Atrium does not trust, it asks every time there, as it may delete things or reach beyond this computer. A tool it adds or changes later asks first.',
  );
});

test('untrusted content that does not raise the bar for this tool is still named', () => {
  assert.equal(
    untrustedContentNote({ serverId: 'web', kind: 'tool', name: 'fetch', why: 'open-world' }, 'echo'),
    'This conversation holds what web/fetch returned (a tool that reads from beyond this computer). echo declares it deletes nothing and stays on this computer, so what you allow for it holds here too.',
  );
});

test('where what the tool returns is itself untrusted content, the question says an answer for this conversation would reach no further than this call, and does not offer it', () => {
  const gzip = payload({ tool: { ...payload().tool, name: 'gzip', annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true } }, keepsAfterUntrusted: false });
  assert.equal(
    lastingAllowReach(gzip, 'tool'),
    'Once a conversation holds content Atrium does not trust, gzip asks there every time, because it reaches beyond this computer, where it could send what the conversation holds; what gzip returns counts too, as everything’s own text. So “Always allow” spares you only its first call in each conversation, and an answer for this conversation alone would reach no further than this call.',
  );
  assert.equal(conversationAnswerOutlastsCall(gzip, 'tool'), false);
  assert.equal(conversationAnswerOutlastsCall(gzip, 'server'), true, 'for every tool it still reaches the ones that keep it');
  const fetch = { ...gzip, annotationsTrusted: true, tool: { ...gzip.tool, name: 'fetch', annotations: { readOnlyHint: true } } };
  assert.match(lastingAllowReach(fetch, 'tool'), /what fetch returns counts too, as what it read from beyond this computer\./);
  assert.equal(conversationAnswerOutlastsCall(payload(), 'tool'), true);
  const fromView = { ...gzip, fromView: { serverId: 'everything', tool: 'show' } };
  assert.equal(conversationAnswerOutlastsCall(fromView, 'tool'), true, "a view's calls are not held back by untrusted content");
  assert.match(lastingAllowReach(fromView, 'tool'), /^Allowing gzip lasts for its view’s calls, whatever the conversation holds\./);
});
