import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolAnnotationsView } from '../../../shared/domain.ts';
import { effectiveHints } from '../../../shared/toolHints.ts';
import { defaultDecision } from './annotationPolicy.ts';

type Row = [label: string, annotations: ToolAnnotationsView | undefined, trusted: boolean, kind: 'allow' | 'ask', record: boolean, elevated: boolean];

// Spec 000 §2.4.5.2's table, with the spec's defaults for missing hints and spec 003's trust rule.
const table: Row[] = [
  ['trusted, read-only, closed world', { readOnlyHint: true, openWorldHint: false }, true, 'allow', false, false],
  ['trusted, read-only, open world (missing openWorldHint = true)', { readOnlyHint: true }, true, 'allow', true, false],
  ['trusted, read-only wins over a meaningless destructiveHint', { readOnlyHint: true, destructiveHint: true, openWorldHint: false }, true, 'allow', false, false],
  ['trusted, idempotent and not destructive', { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }, true, 'allow', true, false],
  ['trusted, idempotent, not destructive, open world', { destructiveHint: false, idempotentHint: true }, true, 'allow', true, false],
  ['trusted, not destructive but not idempotent', { destructiveHint: false, openWorldHint: false }, true, 'ask', true, false],
  ['trusted, destructive, closed world', { destructiveHint: true, openWorldHint: false }, true, 'ask', true, false],
  ['trusted, destructive and idempotent is still destructive', { destructiveHint: true, idempotentHint: true, openWorldHint: false }, true, 'ask', true, false],
  ['trusted, destructive and open world', { destructiveHint: true, openWorldHint: true }, true, 'ask', true, true],
  ['trusted, no annotations: destructive, open world by default', undefined, true, 'ask', true, true],
  ['trusted, only a title: hints default', { title: 'Thing' }, true, 'ask', true, true],
  ['trusted, only openWorldHint false: destructive by default', { openWorldHint: false }, true, 'ask', true, false],
  // An untrusted server's tools all ask; the stronger warning only where the server itself gives it.
  ['untrusted, no annotations', undefined, false, 'ask', true, false],
  ['untrusted server LYING that its tool is read-only', { readOnlyHint: true, openWorldHint: false }, false, 'ask', true, false],
  ['untrusted, claims idempotent and not destructive', { destructiveHint: false, idempotentHint: true, openWorldHint: false }, false, 'ask', true, false],
  ['untrusted, admits destructive and open world', { destructiveHint: true, openWorldHint: true }, false, 'ask', true, true],
  ['untrusted, admits destructive (open world by default)', { destructiveHint: true }, false, 'ask', true, true],
  ['untrusted, admits destructive in a closed world', { destructiveHint: true, openWorldHint: false }, false, 'ask', true, false],
];

for (const [label, annotations, trusted, kind, record, elevated] of table) {
  test(`annotation policy: ${label} → ${kind}${record ? ', recorded' : ''}${elevated ? ', elevated' : ''}`, () => {
    const decision = defaultDecision(annotations === undefined ? {} : { annotations }, trusted);
    assert.deepEqual({ kind: decision.kind, record: decision.record, elevated: decision.elevated }, { kind, record, elevated });
    assert.ok(decision.reason.length > 0);
  });
}

test('the policy never denies on its own: an unset answer asks', () => {
  for (const [, annotations, trusted] of table) assert.notEqual(defaultDecision({ annotations }, trusted).kind, 'deny');
});

test('reasons are sentences for the person', () => {
  assert.equal(defaultDecision({ annotations: { readOnlyHint: true, openWorldHint: false } }, true).reason, 'read-only tool of a trusted server');
  assert.match(defaultDecision({ annotations: { readOnlyHint: true } }, false).reason, /server that is not trusted asks, whatever its tools declare/);
  assert.match(defaultDecision({}, true).reason, /declares no annotations/);
});

test('effective hints: spec defaults, and read-only makes destructive/idempotent moot', () => {
  assert.deepEqual(effectiveHints(undefined), { readOnly: false, destructive: true, idempotent: false, openWorld: true });
  assert.deepEqual(effectiveHints({ readOnlyHint: true, destructiveHint: true, idempotentHint: false }), { readOnly: true, destructive: false, idempotent: true, openWorld: true });
});
