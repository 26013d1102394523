import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProviderSettings } from '../../store/settingsStore.ts';
import { liveApprovals } from './approvalChoices.ts';

test('nothing saved: tool calls follow the annotation policy; sampling is refused unless the front end asks by default', () => {
  const headless = liveApprovals(() => ({}));
  assert.deepEqual([headless.toolMode(), headless.samplingPolicy()], ['ask', 'deny']);
  const window = liveApprovals(() => ({}), { samplingDefault: 'ask' });
  assert.deepEqual(window.choices(), { tools: 'ask', sampling: 'ask' });
});

test('a choice saved in the live settings applies to the next call, without a restart', () => {
  let saved: ProviderSettings = { providers: [] };
  const approvals = liveApprovals(() => saved, { samplingDefault: 'ask' });
  saved = { providers: [], approvals: { tools: 'ask-every' } };
  assert.deepEqual([approvals.toolMode(), approvals.samplingPolicy()], ['ask-every', 'ask']);
  saved = { providers: [], approvals: { tools: 'none', sampling: 'deny' } };
  assert.deepEqual([approvals.toolMode(), approvals.samplingPolicy()], ['none', 'deny']);
});

test("this run's flags win over the saved choice, which Settings still shows", () => {
  const settings: ProviderSettings = { providers: [], approvals: { tools: 'ask-every', sampling: 'deny' } };
  const approvals = liveApprovals(() => settings, { approvalMode: 'all', samplingPolicy: 'ask' });
  assert.deepEqual([approvals.toolMode(), approvals.samplingPolicy()], ['all', 'ask']);
  assert.deepEqual(approvals.choices(), { tools: 'ask-every', sampling: 'deny' });
});
