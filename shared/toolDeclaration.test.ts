import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolDeclaration } from './toolDeclaration.ts';

test('a tool that declares nothing is said to be assumed the worst', () => {
  assert.equal(toolDeclaration('echo', undefined), 'echo declares nothing about what it does, so Atrium assumes it may change or delete things and reach beyond this computer.');
  assert.equal(toolDeclaration('echo', { title: 'Echo' }), toolDeclaration('echo', undefined));
});

test('declared hints in the person’s words, missing ones as the specification’s defaults', () => {
  assert.equal(toolDeclaration('list_notes', { readOnlyHint: true, openWorldHint: false }), 'list_notes declares that it only reads and stays on this computer.');
  assert.equal(toolDeclaration('add', { readOnlyHint: true, idempotentHint: true }), 'add declares that it only reads and reaches beyond this computer.');
  assert.equal(toolDeclaration('save', { destructiveHint: false, idempotentHint: true, openWorldHint: false }), 'save declares that it changes things but deletes nothing, can be repeated safely and stays on this computer.');
  assert.equal(toolDeclaration('wipe', { destructiveHint: true }), 'wipe declares that it may change or delete things and reaches beyond this computer.');
});
