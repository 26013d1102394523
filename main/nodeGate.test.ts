import { test } from 'node:test';
import assert from 'node:assert/strict';

// nodeGate.mjs is plain JavaScript (it must parse on old Node); a computed specifier keeps TypeScript
// from asking for its types.
const gate = (await import(new URL('./nodeGate.mjs', import.meta.url).href)) as {
  nodeVersionProblem(version: string, typeStripping: unknown, command?: string): string | undefined;
};

test('Node older than 22.13 gets one sentence naming the minimum and what to run again', () => {
  // 22.12 among them: its node:sqlite needs a flag, so Atrium's store cannot open there.
  for (const version of ['20.20.2', '18.19.0', '22.11.0', '22.12.0']) {
    const problem = gate.nodeVersionProblem(version, undefined, '"npm run web"');
    assert.match(problem ?? '', /^Atrium needs Node\.js 22\.13\.0 or newer; this is Node\.js /);
    assert.match(problem ?? '', /run "npm run web" again\.$/);
    assert.doesNotMatch(problem ?? '', /\n/);
  }
});

test('Node 22.13+ without type stripping is told how to proceed; with it, no problem', () => {
  assert.match(gate.nodeVersionProblem('22.13.0', undefined) ?? '', /--experimental-strip-types/);
  assert.equal(gate.nodeVersionProblem('22.18.0', 'strip'), undefined);
  assert.equal(gate.nodeVersionProblem('24.1.0', 'strip'), undefined);
});
