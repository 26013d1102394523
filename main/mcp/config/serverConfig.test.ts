import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeTarget, isSameServer, parseServerEntry, isToolAlwaysLoaded, isToolEnabled, parseServersFile, toStoredEntry, withToolAlwaysLoaded, withToolEnabled } from './serverConfig.ts';

test('accepts the Claude Desktop / Cursor shape {"mcpServers": {...}}', () => {
  const { servers, problems } = parseServersFile(
    JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { A: '1' } }, web: { url: 'https://example.com/mcp' } } }),
    'test',
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(servers[0], { id: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { A: '1' }, disabled: false, requestTimeoutMs: undefined });
  assert.equal(servers[1]?.transport, 'http');
});

test('accepts the VS Code shape {"servers": {...}} with type stdio | http | sse', () => {
  const { servers, problems } = parseServersFile(
    JSON.stringify({ servers: { a: { type: 'stdio', command: 'x' }, b: { type: 'http', url: 'http://127.0.0.1:1/mcp' }, c: { type: 'sse', url: 'http://127.0.0.1:2/sse' } } }),
    'test',
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(servers.map((s) => s.transport), ['stdio', 'http', 'sse']);
});

test('a bad entry is a problem naming the server and the field; the other servers still load', () => {
  const { servers, problems } = parseServersFile(
    JSON.stringify({ mcpServers: { good: { command: 'ok' }, bad: { command: 'x', args: 'not-an-array' }, worse: { url: 'ftp://nope' } } }),
    'test',
  );
  assert.deepEqual(servers.map((s) => s.id), ['good']);
  assert.equal(problems.length, 2);
  assert.equal(problems[0]?.serverId, 'bad');
  assert.equal(problems[0]?.field, 'args');
  assert.match(problems[0]?.message ?? '', /server "bad": "args" must be a list \(\[…\]\)/);
  assert.equal(problems[1]?.field, 'url');
});

test('what is wrong with a field is said in the words of someone editing the file, never a schema’s', () => {
  const entries = {
    empty: { command: '' },
    port: { command: 'node', env: { PORT: 8080 } },
    quick: { command: 'node', requestTimeoutMs: 5 },
    tools: { command: 'node', disabledTools: 'some' },
    sandbox: { command: 'node', sandbox: 'yes' },
    paths: { command: 'node', sandbox: { filesystem: { allowWrite: [7] } } },
    kind: { type: 'pigeon', command: 'node' },
    sign: { url: 'https://example.com/mcp', oauth: { clientId: 'a', colour: 'blue' } },
    second: { command: 'node', args: ['server.js', 8080] },
  };
  const { problems } = parseServersFile(JSON.stringify({ mcpServers: entries }), 'test');
  const said = Object.fromEntries(problems.map((problem) => [problem.serverId, problem.message]));
  assert.deepEqual(said, {
    empty: 'server "empty": "command" must not be empty',
    port: 'server "port": "env.PORT" must be text (in quotes)',
    quick: 'server "quick": "requestTimeoutMs" must be at least 100',
    tools: 'server "tools": "disabledTools" must be "all" or a list of tool names',
    sandbox: 'server "sandbox": "sandbox" must be false (no sandbox) or an object saying what more it may reach ("filesystem", "network")',
    // A place in a list is said as a count, not as a path's index.
    paths: 'server "paths": item 1 of "sandbox.filesystem.allowWrite" must be text (in quotes)',
    kind: 'server "kind": "type" must be one of "stdio", "http", "sse", "streamable-http", "streamableHttp"',
    sign: 'server "sign": "oauth" has a field Atrium does not know: "colour"',
    second: 'server "second": item 2 of "args" must be text (in quotes)',
  });
  for (const message of Object.values(said)) assert.doesNotMatch(message ?? '', /must NOT|must be (string|array|integer|equal)|schema|instancePath/);
});

test('an entry with neither command nor url, or both, is rejected with the reason', () => {
  const { problems } = parseServersFile(JSON.stringify({ mcpServers: { none: { type: 'stdio' }, both: { command: 'x', url: 'http://a' } } }), 'test');
  assert.match(problems[0]?.message ?? '', /needs "command"/);
  assert.match(problems[1]?.message ?? '', /both "command" and "url"/);
});

test('malformed JSON is one file-level problem, never an exception', () => {
  const { servers, problems } = parseServersFile('{"mcpServers": {', 'servers.json');
  assert.deepEqual(servers, []);
  assert.match(problems[0]?.message ?? '', /servers\.json is not valid JSON/);
  // A --config file is said like Atrium's own: at the mistake itself (a missing comma, on its line).
  const missingComma = parseServersFile('{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}\n', '/tmp/theirs.json');
  assert.equal(missingComma.problems[0]?.message, '/tmp/theirs.json is not valid JSON: line 3, column 28: a comma is missing here (or a closing "}")');
});

test('per-server timeout: requestTimeoutMs in ms, or Cline-style timeout in seconds; disabled is kept', () => {
  const { servers } = parseServersFile(JSON.stringify({ mcpServers: { a: { command: 'x', requestTimeoutMs: 1500, disabled: true }, b: { command: 'y', timeout: 2 } } }), 't');
  assert.equal(servers[0]?.requestTimeoutMs, 1500);
  assert.equal(servers[0]?.disabled, true);
  assert.equal(servers[1]?.requestTimeoutMs, 2000);
});

test('maxMessageBytes caps what is read from a stdio or a remote server, and is stored as written', () => {
  const { servers, problems } = parseServersFile(JSON.stringify({ mcpServers: { local: { command: 'x', maxMessageBytes: 4096 }, remote: { url: 'https://example.com/mcp', maxMessageBytes: 8192 } } }), 't');
  assert.deepEqual(problems, []);
  assert.deepEqual(servers.map((server) => server.maxMessageBytes), [4096, 8192]);
  assert.deepEqual(servers.map((server) => toStoredEntry(server).maxMessageBytes), [4096, 8192]);
});

test('the stored form round-trips and the target is shown exactly, quoting what a shell would split', () => {
  const { servers } = parseServersFile(JSON.stringify({ mcpServers: { a: { command: 'node', args: ['my server.js', '--flag'], cwd: '/w' } } }), 't');
  const server = servers[0];
  assert.ok(server);
  assert.deepEqual(parseServersFile(JSON.stringify({ mcpServers: { a: toStoredEntry(server) } }), 't').servers[0], server);
  assert.equal(describeTarget(server), "node 'my server.js' --flag");
});

test('tools can be turned off for the model one by one or all at once, and back on; the choice is stored', () => {
  const server = parseServersFile(JSON.stringify({ mcpServers: { a: { command: 'x' } } }), 't').servers[0];
  assert.ok(server);
  const oneOff = withToolEnabled(server, 'delete', false);
  assert.deepEqual([isToolEnabled(oneOff, 'delete'), isToolEnabled(oneOff, 'read')], [false, true]);
  const allOff = withToolEnabled(oneOff, undefined, false);
  assert.deepEqual([isToolEnabled(allOff, 'delete'), isToolEnabled(allOff, 'read')], [false, false]);
  const backOn = withToolEnabled(withToolEnabled(allOff, undefined, true), 'delete', true);
  assert.equal(backOn.disabledTools, undefined);
  assert.deepEqual(parseServersFile(JSON.stringify({ mcpServers: { a: toStoredEntry(oneOff) } }), 't').servers[0]?.disabledTools, ['delete']);
});

test('tools can be kept always loaded one by one or all at once, and let go; the choice is stored beside the tools turned off', () => {
  const server = parseServersFile(JSON.stringify({ mcpServers: { a: { command: 'x', disabledTools: ['delete'] } } }), 't').servers[0];
  assert.ok(server);
  const one = withToolAlwaysLoaded(server, 'read', true);
  assert.deepEqual([isToolAlwaysLoaded(one, 'read'), isToolAlwaysLoaded(one, 'write')], [true, false]);
  assert.deepEqual(one.disabledTools, ['delete'], 'the other choice is kept');
  const all = withToolAlwaysLoaded(one, undefined, true);
  assert.deepEqual([isToolAlwaysLoaded(all, 'read'), isToolAlwaysLoaded(all, 'write')], [true, true]);
  assert.equal(withToolAlwaysLoaded(withToolAlwaysLoaded(one, 'read', false), 'x', false).alwaysLoadedTools, undefined);
  const stored = parseServersFile(JSON.stringify({ mcpServers: { a: toStoredEntry(one) } }), 't').servers[0];
  assert.deepEqual([stored?.alwaysLoadedTools, stored?.disabledTools], [['read'], ['delete']]);
  assert.ok(isSameServer(one, server), 'the same server, whatever is loaded');
  assert.match(parseServersFile(JSON.stringify({ mcpServers: { a: { command: 'x', alwaysLoadedTools: 'some' } } }), 't').problems[0]?.message ?? '', /alwaysLoadedTools/);
});

test('the same server is recognised under another name and after the person trusted it or turned it off; a different launch is not', () => {
  const parse = (entries: Record<string, unknown>) => parseServersFile(JSON.stringify({ mcpServers: entries }), 't').servers;
  const [theirs, ours, otherArgs, otherEnv] = parse({
    fs: { command: 'npx', args: ['-y', 'fs'] },
    'fs-mine': { command: 'npx', args: ['-y', 'fs'], trusted: true, disabled: true, disabledTools: ['write'] },
    fs2: { command: 'npx', args: ['-y', 'fs', '/tmp'] },
    fs3: { command: 'npx', args: ['-y', 'fs'], env: { TOKEN: 't' } },
  });
  assert.ok(theirs && ours && otherArgs && otherEnv);
  assert.equal(isSameServer(theirs, ours), true);
  const { requestTimeoutMs: _left, ...withoutTimeoutKey } = ours;
  assert.ok('requestTimeoutMs' in theirs && !('requestTimeoutMs' in withoutTimeoutKey));
  assert.equal(isSameServer(theirs, withoutTimeoutKey), true, 'a key left undefined is the same as one left out');
  assert.equal(isSameServer(theirs, otherArgs), false);
  assert.equal(isSameServer(theirs, otherEnv), false);
});

test('a remote server may carry an oauth block, kept as written; its secrets are named, never written in the file', () => {
  const oauth = { clientId: 'atrium-app', clientSecret: { secret: 'atrium-app-secret' }, scopes: ['repo', 'read:org'], redirectUri: 'http://127.0.0.1:33418/callback' };
  const { servers, problems } = parseServersFile(JSON.stringify({ mcpServers: { gh: { url: 'https://api.example.com/mcp', oauth } } }), 'test');
  assert.deepEqual(problems, []);
  assert.deepEqual(servers[0]?.transport !== 'stdio' ? servers[0]?.oauth : undefined, oauth);
  const stored = servers[0] ? toStoredEntry(servers[0]) : undefined;
  assert.deepEqual(stored && 'oauth' in stored ? stored.oauth : undefined, oauth);

  const plaintext = parseServersFile(JSON.stringify({ mcpServers: { gh: { url: 'https://api.example.com/mcp', oauth: { clientId: 'a', clientSecret: 'hunter2' } } } }), 'test');
  assert.equal(plaintext.problems[0]?.field, 'oauth.clientSecret');
  assert.match(plaintext.problems[0]?.message ?? '', /must name a secret \(\{"secret": "name"\}\).*not hold it/);
  assert.doesNotMatch(plaintext.problems[0]?.message ?? '', /hunter2/);
});

test('an oauth block is checked: the grant has what it needs, the redirect URI is loopback, stdio servers have none', () => {
  const parse = (entry: unknown) => parseServersFile(JSON.stringify({ mcpServers: { s: entry } }), 'test').problems[0];
  assert.match(parse({ url: 'https://a.example/mcp', oauth: { grant: 'client_credentials', clientId: 'c' } })?.message ?? '', /needs "clientSecret" or "privateKey"/);
  assert.match(parse({ url: 'https://a.example/mcp', oauth: { grant: 'jwt-bearer', clientId: 'c' } })?.message ?? '', /needs "assertion"/);
  assert.equal(parse({ url: 'https://a.example/mcp', oauth: { redirectUri: 'https://evil.example/callback' } })?.field, 'oauth.redirectUri');
  assert.equal(parse({ url: 'https://a.example/mcp', oauth: { clientIdd: 'typo' } })?.field, 'oauth');
  assert.match(parse({ command: 'x', oauth: { clientId: 'c' } })?.message ?? '', /"oauth" is for remote servers/);
});

test('an entry with neither "command" nor "url" says it needs one of them, and names a misspelt key', () => {
  const misspelt = parseServerEntry('notes', { comand: 'npx', args: ['notes-server'] });
  assert.ok('problem' in misspelt);
  assert.equal(misspelt.problem.message, 'server "notes": needs "command" (a program to run) or "url" (a remote server); "comand" looks like a misspelt "command"');
  assert.equal(misspelt.problem.field, 'comand');
  const bare = parseServerEntry('bare', { args: ['x'] });
  assert.ok('problem' in bare);
  assert.equal(bare.problem.message, 'server "bare": needs "command" (a program to run) or "url" (a remote server)');
  const remote = parseServerEntry('remote', { type: 'http', ulr: 'https://example.com/mcp' });
  assert.ok('problem' in remote);
  assert.equal(remote.problem.message, 'server "remote": a http server needs "url"; "ulr" looks like a misspelt "url"');
});
