import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join, resolve } from 'node:path';
import { UsageError, parseCli } from './cliArgs.ts';

test('options may come anywhere after the command', () => {
  const a = parseCli(['call', '--json', 'srv', '--timeout', '500', 'tool', '{"x":1}', '--root', '/a', '--root', '/b']);
  assert.deepEqual(a.args, ['srv', 'tool', '{"x":1}']);
  assert.equal(a.json, true);
  assert.equal(a.timeoutMs, 500);
  assert.deepEqual(a.roots, ['/a', '/b']);
});

test('--elicit takes ask, decline, cancel or accept:JSON; a question is asked by default, as a tool approval is', () => {
  assert.equal(parseCli(['tools']).elicit, 'ask');
  assert.deepEqual(parseCli(['tools', '--elicit', 'decline']).elicit, { action: 'decline' });
  assert.equal(parseCli(['tools', '--elicit', 'ask']).elicit, 'ask');
  assert.deepEqual(parseCli(['tools', '--elicit', 'cancel']).elicit, { action: 'cancel' });
  assert.deepEqual(parseCli(['tools', '--elicit', 'accept:{"name":"Ada"}']).elicit, { action: 'accept', content: { name: 'Ada' } });
  assert.throws(() => parseCli(['tools', '--elicit', 'accept:{bad']), UsageError);
  assert.throws(() => parseCli(['tools', '--elicit', 'maybe']), UsageError);
});

test('wrong commands, arities and timeouts are usage errors with a reason', () => {
  assert.throws(() => parseCli(['frobnicate']), /unknown command "frobnicate"/);
  assert.throws(() => parseCli(['call', 'only-server']), /"call" takes <server> <tool>/);
  assert.throws(() => parseCli(['tools', '--timeout', 'soon']), /--timeout takes a whole number/);
  // Node's timers hold at most 2^31 - 1 ms: a larger time limit is refused here, not met as Node's own words.
  for (const given of ['0', '99999999999', '2147483648']) assert.throws(() => parseCli(['tools', '--timeout', given]), new RegExp(`^Error: --timeout takes a whole number of milliseconds from 1 to 2147483647 \\(about 24 days\\), not "${given}"$`));
  assert.equal(parseCli(['tools', '--timeout', '2147483647']).timeoutMs, 2147483647);
  assert.throws(() => parseCli(['tools', '--no-such-flag']), UsageError);
});

test('--sampling takes deny, ask or approve; without it the saved choice applies (deny when none: approvalChoices.test.ts)', () => {
  assert.equal(parseCli(['chat', 'hi']).sampling, undefined);
  assert.equal(parseCli(['chat', 'hi', '--sampling', 'ask']).sampling, 'ask');
  assert.throws(() => parseCli(['chat', 'hi', '--sampling', 'always']), /--sampling takes deny, ask, approve/);
});

test('--approve takes ask, ask-every, readonly, all or none, for this run only', () => {
  assert.equal(parseCli(['chat', 'hi']).approve, undefined);
  assert.equal(parseCli(['chat', 'hi', '--approve', 'ask-every']).approve, 'ask-every');
  assert.throws(() => parseCli(['chat', 'hi', '--approve', 'sometimes']), /--approve takes ask, ask-every, readonly, all, none/);
});

test('sign-in and sign-out take exactly one server', () => {
  assert.deepEqual(parseCli(['sign-in', 'github']).args, ['github']);
  assert.equal(parseCli(['sign-in', 'github', '--timeout', '60000']).timeoutMs, 60000);
  assert.equal(parseCli(['sign-out', 'github']).command, 'sign-out');
  assert.throws(() => parseCli(['sign-in']), /"sign-in" takes <server>/);
  assert.throws(() => parseCli(['sign-out', 'a', 'b']), /"sign-out" takes <server>/);
});

test('a folder typed relative to the terminal is taken from where the person is; a file: URI stays as it is', () => {
  assert.deepEqual(parseCli(['tools', '--root', 'projects/app', '--root', 'file:///srv/data']).roots, [join(process.cwd(), 'projects/app'), 'file:///srv/data']);
});

test('servers add takes a name and the command line after --, or an address; its options go with it alone', () => {
  const local = parseCli(['servers', 'add', 'fs', '--env', 'TOKEN=a=b', '--cwd', 'work', '--', 'npx', '-y', '@scope/server', '--json']);
  assert.deepEqual(local.args, ['add', 'fs', 'npx', '-y', '@scope/server', '--json']);
  assert.deepEqual(local.newServer, { command: 'npx', args: ['-y', '@scope/server', '--json'], env: { TOKEN: 'a=b' }, cwd: join(process.cwd(), 'work') });
  assert.equal(local.json, false, 'after --, --json is the server’s');
  assert.deepEqual(parseCli(['servers', 'add', 'plain', 'node', 'server.js']).newServer, { command: 'node', args: ['server.js'], env: {} });
  assert.deepEqual(parseCli(['servers', 'add', 'web', '--url', 'https://example.com/mcp']).newServer, { url: 'https://example.com/mcp' });
  assert.throws(() => parseCli(['servers', 'add', 'fs', 'npx', '-y', 'pkg']), /-y is not an option of Atrium's: put the server's command line after --/);
  assert.throws(() => parseCli(['servers', 'add', 'fs']), /for a local server, or <name> --url <address> for a remote one/);
  assert.throws(() => parseCli(['servers', 'add', 'web', '--url', 'https://example.com', '--', 'npx']), /either a command line \(after --\) or an address/);
  assert.throws(() => parseCli(['servers', 'add', 'fs', 'extra', '--', 'npx']), /the name, then -- and the command line/);
  assert.throws(() => parseCli(['servers', 'add', 'fs', '--env', 'TOKEN', '--', 'npx']), /--env takes NAME=value, not "TOKEN"/);
  assert.throws(() => parseCli(['tools', '--url', 'https://example.com']), /go with "servers add"/);
  assert.deepEqual(parseCli(['servers', 'remove', 'fs']).args, ['remove', 'fs']);
  assert.throws(() => parseCli(['servers', 'remove']), /"servers" takes/);
});

test('read --output names a file where the person is; it goes with read alone, and not with --json', () => {
  assert.equal(parseCli(['read', 'everything', 'demo://x', '--output', 'picture.png']).output, resolve('picture.png'));
  assert.throws(() => parseCli(['tools', '--output', 'x']), /--output goes with the read command/);
  assert.throws(() => parseCli(['read', 'everything', 'demo://x', '--output', 'x', '--json']), /leave out --json/);
});

test('a mistake in the options is said in Atrium’s words: the option as typed, then what to type instead', () => {
  const said = (argv: string[]) => {
    try {
      parseCli(argv);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };
  assert.equal(said(['tools', '--timout', '5']), 'there is no option --timout: did you mean --timeout?');
  assert.equal(said(['tools', '--timeout']), '--timeout needs a value after it, as in --timeout VALUE');
  assert.equal(said(['tools', '--json=yes']), '--json takes no value: give it alone');
  assert.equal(said(['tools', '-x']), 'there is no option -x');
  assert.equal(said(['prompt', 'everything', 'args-prompt', '--city=Paris']), "there is no option --city: the prompt's arguments are name=value words, as in atrium prompt SERVER PROMPT name=value");
  assert.doesNotMatch(said(['call', 'fs', 'read', '--path', '/tmp']), /positional|place it at the end/, 'never Node’s words about parsing');
});

test('a slip in the word after a command is said before anything starts, with the word meant', () => {
  assert.throws(() => parseCli(['history', 'expor', 'c-1']), /there is no "history expor": did you mean "history export"\?/);
  assert.throws(() => parseCli(['workspaces', 'ues', 'home']), /did you mean "workspaces use"\?/);
  assert.throws(() => parseCli(['servers', 'aprove', 'fs']), /did you mean "servers approve"\?/);
  assert.throws(() => parseCli(['history', 'everything']), /"history" takes \[export <conversation id>\]/);
  assert.deepEqual(parseCli(['history', 'export', 'c-1']).args, ['export', 'c-1']);
});
