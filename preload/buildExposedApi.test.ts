import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventNames, requestNames } from '../shared/contract.ts';
import { buildExposedApi } from './buildExposedApi.ts';
import type { Invoke, Subscribe } from './buildExposedApi.ts';

function fakeBridge(reply: (channel: string, params: unknown) => unknown = () => ({ ok: true, result: null })) {
  const calls: { channel: string; params: unknown }[] = [];
  let deliver: ((event: string, payload: unknown) => void) | undefined;
  let subscriptions = 0;
  const invoke: Invoke = async (channel, params) => {
    calls.push({ channel, params });
    return reply(channel, params);
  };
  const subscribe: Subscribe = (listener) => {
    subscriptions++;
    deliver = listener;
    return () => {
      deliver = undefined;
    };
  };
  return { invoke, subscribe, calls, emit: (event: string, payload: unknown) => deliver?.(event, payload), subscriptions: () => subscriptions };
}

test('exposes exactly the contract request names plus `on`, all functions', () => {
  const { invoke, subscribe } = fakeBridge();
  const api = buildExposedApi(invoke, subscribe);
  assert.deepEqual(Object.keys(api).sort(), [...requestNames, 'on'].sort());
  for (const value of Object.values(api)) assert.equal(typeof value, 'function');
});

test('each request invokes its own atrium:<name> channel with the params', async () => {
  const bridge = fakeBridge((channel) => ({ ok: true, result: channel }));
  const api = buildExposedApi(bridge.invoke, bridge.subscribe);
  assert.equal(await api.restartServer({ serverId: 'files' }), 'atrium:restartServer');
  assert.deepEqual(bridge.calls, [{ channel: 'atrium:restartServer', params: { serverId: 'files' } }]);
});

test('a request called without params sends an empty object', async () => {
  const bridge = fakeBridge(() => ({ ok: true, result: [] }));
  const api = buildExposedApi(bridge.invoke, bridge.subscribe);
  await (api.listServers as () => Promise<unknown>)();
  assert.deepEqual(bridge.calls[0]?.params, {});
});

test('an error reply rejects with the plain error shape (code and message survive the bridge)', async () => {
  const bridge = fakeBridge(() => ({ ok: false, error: { code: 'not_found', message: 'No server named "x".' } }));
  const api = buildExposedApi(bridge.invoke, bridge.subscribe);
  await assert.rejects(api.restartServer({ serverId: 'x' }), (error: unknown) => {
    assert.deepEqual(error, { code: 'not_found', message: 'No server named "x".' });
    return true;
  });
});

test('a form\'s field problems survive the bridge with the error, so the window can show each beside its field', async () => {
  const fields = [{ field: 'serverId', message: 'Name is required.' }];
  const bridge = fakeBridge(() => ({ ok: false, error: { code: 'invalid_params', message: 'Name is required.', fields, extra: 'dropped' } }));
  const api = buildExposedApi(bridge.invoke, bridge.subscribe);
  await assert.rejects(api.restartServer({ serverId: '' }), (error: unknown) => {
    assert.deepEqual(error, { code: 'invalid_params', message: 'Name is required.', fields });
    return true;
  });
});

test('a refusal names the data file that could not be read, across the bridge', async () => {
  const bridge = fakeBridge(() => ({ ok: false, error: { code: 'failed', message: 'servers.json cannot be read as it is now.', dataFile: 'servers.json' } }));
  const api = buildExposedApi(bridge.invoke, bridge.subscribe);
  await assert.rejects(api.restartServer({ serverId: 'echo' }), (error: unknown) => {
    assert.deepEqual(error, { code: 'failed', message: 'servers.json cannot be read as it is now.', dataFile: 'servers.json' });
    return true;
  });
});

test('a malformed reply rejects with a readable failure', async () => {
  const bridge = fakeBridge(() => 'surprise');
  const api = buildExposedApi(bridge.invoke, bridge.subscribe);
  await assert.rejects(api.listRoots({}), { code: 'failed' });
});

test('`on` accepts only the contract event names', () => {
  const { invoke, subscribe } = fakeBridge();
  const api = buildExposedApi(invoke, subscribe);
  for (const name of eventNames) api.on(name, () => {})();
  assert.throws(() => api.on('anything' as never, () => {}), TypeError);
  assert.throws(() => api.on('log', 'not a function' as never), TypeError);
});

test('`on` delivers only its event, shares one bridge subscription, and unsubscribes', () => {
  const bridge = fakeBridge();
  const api = buildExposedApi(bridge.invoke, bridge.subscribe);
  const logs: unknown[] = [];
  const roots: unknown[] = [];
  const offLog = api.on('log', (line) => logs.push(line));
  api.on('rootsChanged', (list) => roots.push(list));
  bridge.emit('log', { text: 'one' });
  bridge.emit('rootsChanged', []);
  offLog();
  bridge.emit('log', { text: 'two' });
  assert.deepEqual(logs, [{ text: 'one' }]);
  assert.deepEqual(roots, [[]]);
  assert.equal(bridge.subscriptions(), 1);
});
