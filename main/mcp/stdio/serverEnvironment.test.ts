import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServerEnvironment, mergePathLists, pickSafeBaseEnvironment, searchPathOf, withoutAtriumsTools } from './serverEnvironment.ts';

const hostEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/ada',
  USER: 'ada',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'en_GB.UTF-8',
  XDG_CONFIG_HOME: '/home/ada/.config',
  TMPDIR: '/tmp/ada',
  ANTHROPIC_API_KEY: 'sk-ant-secret',
  OPENAI_API_KEY: 'sk-secret',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  GITHUB_TOKEN: 'ghp_secret',
  BASH_FUNC_greet: '() { echo hi; }',
  SHELL: '() { evil; }',
};

test('a server sees only the safe base of the host environment: no API keys or tokens', () => {
  assert.deepEqual(pickSafeBaseEnvironment(hostEnv, 'linux'), {
    PATH: '/usr/bin:/bin',
    HOME: '/home/ada',
    USER: 'ada',
    LANG: 'en_GB.UTF-8',
    LC_ALL: 'en_GB.UTF-8',
    XDG_CONFIG_HOME: '/home/ada/.config',
    TMPDIR: '/tmp/ada',
  });
});

test('on Windows the safe names match whatever their case', () => {
  const env = pickSafeBaseEnvironment({ Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', APPDATA: 'C:\\A', GITHUB_TOKEN: 'x' }, 'win32');
  assert.deepEqual(env, { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', APPDATA: 'C:\\A' });
});

test('PATH lists merge in order without duplicates or empty entries', () => {
  assert.equal(mergePathLists(['/opt/homebrew/bin:/usr/bin:', '/usr/bin:/bin::/opt/homebrew/bin', undefined], ':'), '/opt/homebrew/bin:/usr/bin:/bin');
});

test('started from a shell, the PATH it gave leads; launched from a desktop menu, the login shell\'s does', () => {
  const loginShell = '/home/ada/.nvm/versions/node/v22/bin:/usr/bin:/bin';
  assert.equal(searchPathOf(loginShell, '/home/ada/.nvm/versions/node/v24/bin:/usr/bin', false, ':'), '/home/ada/.nvm/versions/node/v24/bin:/usr/bin:/home/ada/.nvm/versions/node/v22/bin:/bin');
  assert.equal(searchPathOf(loginShell, '/usr/bin:/bin', true, ':'), loginShell);
  assert.equal(searchPathOf(undefined, '/usr/bin:/bin', true, ':'), '/usr/bin:/bin', 'no login shell answer: the inherited PATH alone');
});

test("started with npm run, the folders npm put first for Atrium's own tools are not a server's: every other stays, in order", () => {
  const npmRun = '/opt/atrium/node_modules/.bin:/opt/node_modules/.bin:/node_modules/.bin:/home/ada/.nvm/bin:/home/ada/project/node_modules/.bin:/usr/bin';
  assert.equal(withoutAtriumsTools(npmRun, '/opt/atrium/', ':'), '/home/ada/.nvm/bin:/home/ada/project/node_modules/.bin:/usr/bin');
  assert.equal(withoutAtriumsTools('/opt/atrium/node_modules/.bin/:/usr/bin', '/opt/atrium', ':'), '/usr/bin', 'a trailing slash changes nothing');
  assert.equal(withoutAtriumsTools(npmRun, undefined, ':'), npmRun, 'no folder known: the PATH as it came');
});

test("a server's configured env is applied on top, and may set a secret the host env would have withheld", async () => {
  const env = await buildServerEnvironment({ GITHUB_TOKEN: 'configured', HOME: '/srv' }, hostEnv);
  assert.equal(env.GITHUB_TOKEN, 'configured');
  assert.equal(env.HOME, '/srv');
  assert.equal(env.OPENAI_API_KEY, undefined);
  assert.ok(env.PATH?.split(':').includes('/usr/bin'));
});
