// Which registry is asked, in the order: the policy's (then no other), --registry, ATRIUM_REGISTRY_URL,
// Settings, the official one; an address that is not http(s) is refused naming where it came from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseRegistry } from './registryAddress.ts';
import { OFFICIAL_REGISTRY } from './registryClient.ts';

test('each source wins over those after it', () => {
  const all = { policy: { address: 'https://corp.example/', file: '/etc/atrium/policy.json' }, requested: 'https://corp.example', environment: 'https://env.example', settings: 'https://saved.example' };
  assert.deepEqual(chooseRegistry(all), { address: 'https://corp.example', source: 'policy' });
  const { policy: _policy, ...free } = all;
  assert.deepEqual(chooseRegistry({ ...free, requested: 'https://flag.example/' }), { address: 'https://flag.example', source: 'flag' });
  const { requested: _requested, ...unasked } = free;
  assert.deepEqual(chooseRegistry(unasked), { address: 'https://env.example', source: 'environment' });
  assert.deepEqual(chooseRegistry({ settings: 'https://saved.example' }), { address: 'https://saved.example', source: 'settings' });
  assert.deepEqual(chooseRegistry({}), { address: OFFICIAL_REGISTRY, source: 'official' });
});

test('a policy that names a registry admits no other, and a bad address is named by where it came from', () => {
  assert.throws(() => chooseRegistry({ policy: { address: 'https://corp.example', file: '/etc/atrium/policy.json' }, requested: 'https://other.example' }), /policy \(\/etc\/atrium\/policy\.json\) names the registry https:\/\/corp\.example: Atrium installs from no other/);
  assert.throws(() => chooseRegistry({ environment: 'file:///etc/passwd' }), /ATRIUM_REGISTRY_URL \(file:\/\/\/etc\/passwd\) must be an http\(s\) address/);
  assert.throws(() => chooseRegistry({ settings: 'https://user:pw@saved.example' }), /the registry saved in Settings must not hold a user name or password/);
});
