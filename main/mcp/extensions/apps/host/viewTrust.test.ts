import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../../../store/database.ts';
import { ViewTrustStore, viewTrustMigrations } from './viewTrust.ts';

function store() {
  let clock = 1_000;
  return new ViewTrustStore(openDatabase(':memory:', viewTrustMigrations), { now: () => clock++ });
}

test('a permission is allowed per server and per permission, kept apart from showing views without asking', () => {
  const trust = store();
  assert.deepEqual(trust.list(), []);
  trust.setPermission('maps', 'geolocation', true);
  assert.equal(trust.anyAllows('geolocation'), true);
  assert.equal(trust.anyAllows('camera'), false, 'another permission is still denied');
  assert.equal(trust.allows('maps'), false, 'allowing a permission does not show views without asking');
  trust.allow('charts');
  assert.deepEqual(trust.list(), [
    { serverId: 'charts', showsSince: 1_001, permissions: [] },
    { serverId: 'maps', permissions: [{ permission: 'geolocation', since: 1_000 }] },
  ]);
  assert.deepEqual(trust.list('maps'), [{ serverId: 'maps', permissions: [{ permission: 'geolocation', since: 1_000 }] }]);

  trust.setPermission('maps', 'geolocation', false);
  assert.equal(trust.anyAllows('geolocation'), false);
  assert.deepEqual(trust.list('maps'), [], 'a server with nothing chosen is not listed');
});

test('removing a server forgets everything chosen for its views, and says whether there was anything', () => {
  const trust = store();
  trust.allow('maps');
  trust.setPermission('maps', 'camera', true);
  trust.setPermission('other', 'camera', true);
  assert.equal(trust.forget('maps'), true);
  assert.equal(trust.forget('maps'), false);
  assert.deepEqual(trust.list().map((entry) => entry.serverId), ['other']);
  assert.equal(trust.anyAllows('camera'), true, 'another server keeps its own choice');
});
