import assert from 'node:assert/strict';
import { test } from 'node:test';
import { siblingResource } from './markdownReferences.ts';

const listed = [{ uri: 'demo://resource/static/document/structure.md' }, { uri: 'file:///project/docs/setup.md' }];

test('a reference names a listed resource read against the one it is in', () => {
  assert.equal(siblingResource('demo://resource/static/document/architecture.md', 'structure.md', listed), listed[0]);
  assert.equal(siblingResource('demo://resource/static/document/architecture.md', './structure.md#layout', listed), listed[0]);
  assert.equal(siblingResource('file:///project/docs/readme.md', 'setup.md', listed), listed[1]);
});

test('a reference to nothing listed, or to the resource itself, names nothing', () => {
  assert.equal(siblingResource('demo://resource/static/document/architecture.md', 'missing.md', listed), undefined);
  assert.equal(siblingResource('demo://resource/static/document/architecture.md', '#project-structure', listed), undefined);
  assert.equal(siblingResource('demo://resource/static/document/architecture.md', '../../../../etc/passwd', listed), undefined);
});
