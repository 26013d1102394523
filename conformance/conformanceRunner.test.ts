import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decides, groupOf, judge, label, parseScenarioList, planRuns } from './conformanceRunner.ts';

const listing = `Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - tools_call [2025-06-18,2025-11-25,2026-07-28]
  - request-metadata [2026-07-28]
  - auth/metadata-default [2025-11-25,2026-07-28]
  - auth/2025-03-26-oauth-metadata-backcompat [2025-03-26]
  - auth/dpop [extension]
  - sep-2640-client-no-prefetch [extension]
`;

test('the scenario list is read from `conformance list --client`', () => {
  const scenarios = parseScenarioList(listing);
  assert.equal(scenarios.length, 7);
  assert.deepEqual(scenarios[1], { name: 'tools_call', tags: ['2025-06-18', '2025-11-25', '2026-07-28'] });
});

test('a scenario runs once per scored spec version it targets; extensions once at the suite default', () => {
  const runs = planRuns(parseScenarioList(listing), ['2025-11-25', '2026-07-28']).map((run) => `${run.group} ${label(run)}`);
  assert.deepEqual(runs, [
    'required initialize @ 2025-11-25',
    'required tools_call @ 2025-11-25',
    'required tools_call @ 2026-07-28',
    'required request-metadata @ 2026-07-28',
    'auth auth/metadata-default @ 2025-11-25',
    'auth auth/metadata-default @ 2026-07-28',
    'auth auth/2025-03-26-oauth-metadata-backcompat @ 2025-03-26',
    'auth auth/dpop',
    'extensions sep-2640-client-no-prefetch',
  ]);
});

test('a run passes only with at least one check and none failed', () => {
  assert.deepEqual(judge([{ id: 'a', status: 'SUCCESS' }, { id: 'b', status: 'INFO' }]), { passed: true, checks: 1 });
  assert.equal(judge([]).passed, false);
  assert.deepEqual(judge([{ id: 'skill', status: 'SKIPPED', errorMessage: 'never listed' }]), { passed: false, reason: 'no check passed or failed: skill SKIPPED: never listed' });
  const failed = judge([{ id: 'a', status: 'SUCCESS' }, { id: 'b', status: 'FAILURE', errorMessage: 'no default' }]);
  assert.deepEqual(failed, { passed: false, reason: '1 of 2 checks failed: b: no default' });
});

test('every group decides the exit code: required, auth (its extensions included) and the extensions (Skills)', () => {
  const verdicts = parseScenarioList(listing).map((scenario) => `${scenario.name} ${decides(groupOf(scenario)) ? 'decides' : 'reported'}`);
  assert.deepEqual(verdicts, [
    'initialize decides',
    'tools_call decides',
    'request-metadata decides',
    'auth/metadata-default decides',
    'auth/2025-03-26-oauth-metadata-backcompat decides',
    'auth/dpop decides',
    'sep-2640-client-no-prefetch decides',
  ]);
});
