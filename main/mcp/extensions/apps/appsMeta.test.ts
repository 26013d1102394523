import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appMetaOf, isForTheModel } from './appsMeta.ts';

test('MCP Apps (_meta.ui): a tool names its view by a ui:// resource, and who may call it', () => {
  assert.deepEqual(appMetaOf({ ui: { resourceUri: 'ui://charts/view.html' } }), { view: { resourceUri: 'ui://charts/view.html' } });
  assert.deepEqual(appMetaOf({ ui: { resourceUri: 'ui://charts/view.html', visibility: ['app'] } }), { view: { resourceUri: 'ui://charts/view.html' }, visibility: ['app'] });
  assert.deepEqual(appMetaOf({ 'ui/resourceUri': 'ui://old/view.html' }), { view: { resourceUri: 'ui://old/view.html' } }, 'the older flat key is read too');
  assert.deepEqual(appMetaOf(undefined), {});
});

test('a server’s word is read defensively: no view outside ui://, unknown audiences ignored, a huge address refused', () => {
  assert.deepEqual(appMetaOf({ ui: { resourceUri: 'https://evil.example/view.html' } }), {});
  assert.deepEqual(appMetaOf({ ui: { resourceUri: 'javascript:alert(1)' } }), {});
  assert.deepEqual(appMetaOf({ ui: { resourceUri: `ui://x/${'a'.repeat(5000)}` } }), {});
  assert.deepEqual(appMetaOf({ ui: { visibility: ['everyone', 'app', 42] } }), { visibility: ['app'] });
  assert.deepEqual(appMetaOf({ ui: { visibility: 'app' } }), {}, 'not a list: no declaration, so both audiences');
  assert.deepEqual(appMetaOf({ ui: null }), {});
});

test('MCP Apps (visibility): a tool for its view only is not for the model; no declaration means both', () => {
  assert.equal(isForTheModel({ visibility: ['app'] }), false);
  assert.equal(isForTheModel({ visibility: ['model', 'app'] }), true);
  assert.equal(isForTheModel({}), true);
});
