import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHostInfoApi, headlessFrontEnd } from './hostInfoApi.ts';

test('the browser mode says what it is and that it has no folder picker; asking for one fails with what to do instead', async () => {
  const api = createHostInfoApi({ kind: 'browser' });
  assert.deepEqual(await api.getHostInfo({}), { frontEnd: 'browser', canPickFolders: false });
  await assert.rejects(api.pickFolders({}), (error: { code?: string; message?: string }) => {
    assert.equal(error.code, 'failed');
    assert.equal(error.message, 'Choosing a folder is not available in the browser: type the folder’s full path instead.');
    return true;
  });
});

test('a front end without a window (the CLI) has no picker either', async () => {
  const api = createHostInfoApi(headlessFrontEnd);
  assert.deepEqual(await api.getHostInfo({}), { frontEnd: 'headless', canPickFolders: false });
  await assert.rejects(api.pickFolders({}), /not available here/);
});

test('the desktop app’s injected picker answers with the folders the person chose, or none when cancelled', async () => {
  const answers = [['/home/you/project', '/home/you/notes'], []];
  let shown = 0;
  const api = createHostInfoApi({
    kind: 'electron',
    pickFolders: async () => {
      shown++;
      return answers.shift() ?? [];
    },
  });
  assert.deepEqual(await api.getHostInfo({}), { frontEnd: 'electron', canPickFolders: true });
  assert.deepEqual(await api.pickFolders({}), ['/home/you/project', '/home/you/notes']);
  assert.deepEqual(await api.pickFolders({}), []);
  assert.equal(shown, 2);
});
