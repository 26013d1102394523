// The CLI as a person runs it: a real `node main/cli/atrium.ts` process against real servers.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { everythingServerPath, makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

const atrium = (home: string, ...args: string[]) => runAtriumCli(home, args);

describe('atrium CLI', () => {
  let home: string;
  before(async () => {
    home = await makeTempDir('atrium-cli-');
    await writeFile(
      join(home, 'servers.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] },
          echo: fixtureCommand('echoServer'),
          crashy: fixtureCommand('crashServer'),
          hangs: fixtureCommand('hangServer', ['--hang-initialize']),
          missing: { command: 'atrium-no-such-command' },
        },
      }),
    );
    await approveServers(home);
  });
  after(() => rm(home, { recursive: true, force: true }));

  test('servers lists every server with its status; broken ones say why', async () => {
    const { code, stdout } = await atrium(home, 'servers', '--timeout', '3000');
    assert.equal(code, 0);
    assert.match(stdout, /everything {2}\[stdio\] {2}Ready/);
    assert.match(stdout, /missing {2}\[stdio\] {2}Error: .*command not found: "atrium-no-such-command"/);
    assert.match(stdout, /hangs {2}\[stdio\] {2}Error: .*no answer to discovery or initialize within the time limit/);
  });

  test('call prints the tool result; --json prints the raw result', async () => {
    const human = await atrium(home, 'call', 'echo', 'echo', '{"text": "hello cli"}');
    assert.equal(human.code, 0, human.stderr);
    assert.equal(human.stdout.trim(), 'hello cli');
    const json = await atrium(home, 'call', '--json', 'echo', 'add', '{"a": 2, "b": 3}');
    assert.deepEqual(JSON.parse(json.stdout).structuredContent, { sum: 5 });
  });

  test('--elicit answers a server elicitation; without it a script is told the question was declined, and how to answer it', async () => {
    const accepted = await atrium(home, 'call', 'echo', 'ask', '{"message": "name?"}', '--elicit', 'accept:{"name": "Ada"}');
    assert.match(accepted.stdout, /"action":\s*"accept"/);
    assert.match(accepted.stdout, /Ada/);
    assert.doesNotMatch(accepted.stderr, /asked for your input/, 'answered as the person said up front');
    const declined = await atrium(home, 'call', 'echo', 'ask', '{"message": "name?"}');
    assert.match(declined.stdout, /"action":\s*"decline"/);
    // The server's own "declined" is not the person's word: they are told who declined and why.
    assert.match(declined.stderr, /^atrium: echo asked for your input, but there is no terminal to ask on; it was declined \(use --elicit to answer up front\)$/m);
  });

  test('workspaces keep their roots between runs; the active one is what servers see', async () => {
    const project = await makeTempDir('atrium-cli-project-');
    try {
      const set = await atrium(home, 'workspaces', 'set', 'project', project);
      assert.equal(set.code, 0, set.stderr);
      assert.match(set.stdout, /^\* Default\n {4}\(no roots\)\n {2}project\n {4}file:\/\//m);
      assert.doesNotMatch((await atrium(home, 'call', 'echo', 'roots')).stdout, /atrium-cli-project-/, 'not active yet');
      assert.equal((await atrium(home, 'workspaces', 'use', 'project')).code, 0);
      assert.match((await atrium(home, 'call', 'echo', 'roots')).stdout, /atrium-cli-project-/);
      const unknown = await atrium(home, 'workspaces', 'use', 'nope');
      assert.equal(unknown.code, 1, 'a name that is not there, as a server that is not: not a slip in the command (2)');
      assert.match(unknown.stderr, /there is no workspace called "nope"$/m);
      const slip = await atrium(home, 'workspaces', 'use', 'projct');
      assert.match(slip.stderr, /there is no workspace called "projct": did you mean "project"\?$/m);
      const missing = await atrium(home, 'call', 'echo', 'roots', '--root', join(project, 'missing'));
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^atrium: there is no folder ".*missing"$/m);
    } finally {
      await atrium(home, 'workspaces', 'use', 'Default');
      await rm(project, { recursive: true, force: true });
    }
  });

  test('--root exposes a folder to servers as a root', async () => {
    const { stdout } = await atrium(home, 'call', 'echo', 'roots', '--root', home);
    assert.ok(stdout.includes('file://'), stdout);
  });

  test('a crash mid-call, a missing command and an unknown server exit non-zero with one line naming the server', async () => {
    for (const [args, pattern] of [
      [['call', 'crashy', 'crash'], /^atrium: crashy: tool "crash": the server process exited with code 3; it last wrote: crashServer: crashing mid-call$/],
      [['call', 'missing', 'x'], /^atrium: missing: .*command not found: "atrium-no-such-command"/],
      [['call', 'nobody', 'x'], /^atrium: there is no server named "nobody"/],
      [['call', 'hangs', 'x', '--timeout', '1000'], /^atrium: hangs: .*no answer to discovery or initialize within the time limit/],
    ] as const) {
      const { code, stderr } = await atrium(home, ...args);
      assert.notEqual(code, 0, args.join(' '));
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, `one line for ${args.join(' ')}: ${stderr}`);
      assert.match(lines[0] ?? '', pattern);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    }
  });

  test('tools --search ranks the tools as the model’s search gets them: model-facing names and scores, best first', async () => {
    // Not kept waiting by the server that hangs in initialize (its time limit would otherwise be 30 s a run).
    const search = (...args: string[]) => atrium(home, 'tools', '--timeout', '3000', '--search', ...args);
    const found = await search('get the sum of two numbers', '--limit', '3', '--json');
    assert.equal(found.code, 1, 'crashy, hangs and missing could not start: the ranking leaves their tools out');
    const hits = JSON.parse(found.stdout) as { rank: number; modelName: string; score: number }[];
    assert.equal(hits[0]?.modelName, 'everything__get-sum');
    assert.ok(hits.length <= 3);
    assert.deepEqual(hits.map((hit) => hit.rank), hits.map((_, index) => index + 1));
    assert.ok(hits.every((hit, index) => index === 0 || (hits[index - 1]?.score ?? 0) >= hit.score), 'best first');
    const text = await search('echo back a message');
    assert.match(text.stdout, /^1\. everything__echo {2}\(everything \/ echo\) {2}score \d+\.\d\d\n {4}\S/);
    assert.match((await search('zzzqqq')).stdout, /No tool matches "zzzqqq"\./);
    const bad = await search('echo', '--limit', '0');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--limit takes a whole number from 1 to 20, not "0"/);
  });

  test('a list that leaves out a server that could not start shows what the others offer, names it, and exits 1', async () => {
    const listed = await atrium(home, 'tools', '--timeout', '3000');
    assert.equal(listed.code, 1, 'a script must not take the list for the whole answer');
    assert.match(listed.stdout, /everything \/ echo {2}\(model name: everything__echo\)/);
    assert.match(listed.stdout, /echo \/ echo/);
    assert.match(listed.stderr, /^atrium: missing: command not found: "atrium-no-such-command"/m);
    const whole = await atrium(home, 'tools', '--server', 'echo');
    assert.equal(whole.code, 0, whole.stderr);
  });

  test('tools, resources, templates, prompts, read and prompt work against server-everything', async () => {
    const tools = await atrium(home, 'tools', '--server', 'everything');
    assert.match(tools.stdout, /everything \/ echo {2}\(model name: everything__echo\)/);
    const resources = await atrium(home, 'resources', '--server', 'everything', '--json');
    const [first] = JSON.parse(resources.stdout) as { uri: string }[];
    assert.ok(first);
    assert.match((await atrium(home, 'templates', '--server', 'everything')).stdout, /demo:\/\/resource\/dynamic/);
    assert.match((await atrium(home, 'prompts', '--server', 'everything')).stdout, /args-prompt city \[state\]/);
    const read = await atrium(home, 'read', 'everything', first.uri);
    assert.equal(read.code, 0, read.stderr);
    assert.ok(read.stdout.length > 0);
    const prompt = await atrium(home, 'prompt', 'everything', 'args-prompt', '{"city": "Porto"}');
    assert.match(prompt.stdout, /^user: .*Porto/m);
  });

  test('bytes the server says are text are shown as text; --output saves them as they are, --json keeps them as base64', async () => {
    const uri = 'demo://resource/dynamic/blob/3';
    const shown = await atrium(home, 'read', 'everything', uri);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^Resource 3: This is a base64 blob created at /);
    const json = await atrium(home, 'read', 'everything', uri, '--json');
    const [content] = (JSON.parse(json.stdout) as { contents: { blob: string }[] }).contents;
    assert.ok(content?.blob);
    const saved = await atrium(home, 'read', 'everything', uri, '--output', join(home, 'blob.bin'));
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stdout, /^Saved \d+ bytes to .*blob\.bin\.\n$/);
    // server-everything's blob is text that says when it was made, so the two reads differ only in that.
    const made = / created at [^\n]*$/;
    assert.equal((await readFile(join(home, 'blob.bin'), 'utf8')).replace(made, ''), Buffer.from(content.blob, 'base64').toString('utf8').replace(made, ''));
    await writeFile(join(home, 'mine.txt'), 'what the person wrote');
    const again = await atrium(home, 'read', 'everything', uri, '--output', join(home, 'mine.txt'));
    assert.equal(again.code, 1, 'a file that is there is not written over');
    assert.match(again.stderr, /could not save it to .*mine\.txt: there is a file there already; name another, or remove that one first$/m);
    assert.equal(await readFile(join(home, 'mine.txt'), 'utf8'), 'what the person wrote');
    const nowhere = await atrium(home, 'read', 'everything', uri, '--output', join(home, 'no-such-folder', 'blob.bin'));
    assert.equal(nowhere.code, 1);
    assert.match(nowhere.stderr, /could not save it to .*blob\.bin: its folder does not exist$/m);
  });

  test('arguments typed as name=value words: a tool takes them as its schema says, a prompt as text; a slip is said before any server starts', async () => {
    const sum = await atrium(home, 'call', 'everything', 'get-sum', 'a=1', 'b=2.5');
    assert.equal(sum.code, 0, sum.stderr);
    assert.match(sum.stdout, /The sum of 1 and 2\.5 is 3\.5/);
    const prompt = await atrium(home, 'prompt', 'everything', 'args-prompt', 'city=Porto', 'state=Douro Litoral');
    assert.match(prompt.stdout, /^user: .*Porto, Douro Litoral/m);
    const cut = await atrium(home, 'call', 'everything', 'echo', 'message=hello', 'world');
    assert.equal(cut.code, 2);
    assert.equal(
      cut.stderr,
      'atrium: give the tool\'s arguments as name=value words or as one JSON object: "world" is neither (a value with spaces goes in quotes: message="hello world")\nRun "atrium --help" to see every command and option.\n',
    );
  });

  // In Atrium's words, with the server's description of each argument (the server's own refusal would be a schema path).
  test('a prompt argument left out or misspelt is named, with what it is, before the server is asked; exit 1', async () => {
    const missing = await atrium(home, 'prompt', 'everything', 'args-prompt', '{"citty": "Porto"}');
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      'atrium: everything: prompt "args-prompt" cannot take these arguments:\n  ✗ city is required — Name of the city\n  ✗ citty is not an argument of this prompt (did you mean city?)\n',
    );
  });

  test('a slip in a server, tool or prompt name names the one meant; a name far from any is only said not to be there', async () => {
    const server = await atrium(home, 'call', 'everythin', 'echo', '{"message": "hi"}');
    assert.equal(server.code, 1);
    assert.match(server.stderr, /^atrium: there is no server named "everythin" in .*servers\.json: did you mean "everything"\?\n$/);
    const tool = await atrium(home, 'call', 'everything', 'echoo', '{"message": "hi"}');
    assert.equal(tool.code, 1);
    assert.equal(tool.stderr, 'atrium: everything: there is no tool named "echoo": did you mean "echo"?\n');
    const far = await atrium(home, 'call', 'everything', 'deploy_everything');
    assert.equal(far.stderr, 'atrium: everything: there is no tool named "deploy_everything"\n');
    const prompt = await atrium(home, 'prompt', 'everything', 'args_prompt', '{"city": "Paris"}');
    assert.equal(prompt.code, 1);
    assert.equal(prompt.stderr, 'atrium: everything: there is no prompt named "args_prompt": did you mean "args-prompt"?\n');
  });

  test('a usage mistake is said in one line with where to read more, not buried under the whole usage; exit 2', async () => {
    const { code, stderr } = await atrium(home, 'call', 'only-one-arg');
    assert.equal(code, 2);
    assert.equal(stderr, 'atrium: "call" takes <server> <tool> [name=value... | json-args]\nRun "atrium --help" to see every command and option.\n');
    const slip = await atrium(home, 'tool');
    assert.equal(slip.code, 2);
    assert.match(slip.stderr, /^atrium: unknown command "tool": did you mean "tools"\?\n/);
    const alone = await atrium(home);
    assert.equal(alone.code, 2, 'no command at all');
    assert.match(alone.stderr, /^usage: atrium <command>/m, 'gets the whole usage');
  });
});

describe('atrium import and install given the wrong thing', () => {
  test('a file that is not there, a folder, a file with no servers, and a config given to install: each said in a line, exit 1', async () => {
    const home = await makeTempDir('atrium-import-wrong-');
    try {
      const missing = await atrium(home, 'import', join(home, 'nope.json'));
      assert.equal(missing.code, 1);
      assert.equal(missing.stderr.trim(), `atrium: ${join(home, 'nope.json')}: there is no such file`);
      assert.equal(missing.stdout, '', 'no count of servers added or left out: nothing was read');

      const folder = await atrium(home, 'import', home);
      assert.equal(folder.code, 1);
      assert.equal(folder.stderr.trim(), `atrium: ${home} is a folder: give the config file in it (for example claude_desktop_config.json)`);

      const other = join(home, 'settings.json');
      await writeFile(other, JSON.stringify({ theme: 'dark' }));
      const empty = await atrium(home, 'import', other);
      assert.equal(empty.code, 1);
      assert.equal(empty.stderr.trim(), `atrium: ${other} holds no servers: Atrium reads them from "mcpServers" (Claude Desktop, Cursor), "servers" or "mcp.servers" (VS Code)`);

      const config = join(home, 'claude_desktop_config.json');
      await writeFile(config, JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
      const install = await atrium(home, 'install', config);
      assert.equal(install.code, 1);
      assert.equal(install.stderr.trim(), `atrium: ${config} is not a .mcpb bundle: to add the servers of a config file, run atrium import ${config}`);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('a slip in where the servers are', () => {
  test('a misspelt "mcpServers" is said with the key meant, and a --config file that is not there is said; both exit 1', async () => {
    const home = await makeTempDir('atrium-slip-');
    try {
      const written = JSON.stringify({ mcpServer: { mine: { command: 'node', args: ['mine.js'] } } });
      await writeFile(join(home, 'servers.json'), written);
      const slip = await atrium(home, 'servers');
      assert.equal(slip.code, 1, slip.stderr);
      assert.match(slip.stderr, /"mcpServer" is not a key Atrium reads: the servers go under "mcpServers"\./);
      assert.doesNotMatch(slip.stdout, /No servers configured/);
      assert.equal(await readFile(join(home, 'servers.json'), 'utf8'), written, 'the file is left as the person wrote it');

      const missing = await atrium(home, 'servers', '--config', join(home, 'nope.json'));
      assert.equal(missing.code, 1, missing.stderr);
      assert.match(missing.stderr, /nope\.json: there is no such file/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('a server whose working folder is not there', () => {
  test('its start says so, naming its own command, not the sandbox that would have held it', async () => {
    const home = await makeTempDir('atrium-cwd-');
    try {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { nowhere: { ...fixtureCommand('echoServer'), cwd: '/atrium-no-such-folder' } } }));
      await approveServers(home);
      const { code, stderr } = await atrium(home, 'call', 'nowhere', 'echo');
      assert.equal(code, 1, stderr);
      assert.equal(stderr.trim(), `atrium: nowhere: working directory not found: "/atrium-no-such-folder" (configured for "${process.execPath}")`);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('atrium import', () => {
  test('a file saved with a byte order mark (Windows Notepad) reads as any other: servers.json and a config to import', async () => {
    const home = await makeTempDir('atrium-bom-');
    try {
      const bom = '\uFEFF';
      await writeFile(join(home, 'servers.json'), `${bom}${JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['mine.js'], disabled: true } } })}`);
      const listed = await atrium(home, 'servers');
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /^mine {2}\[stdio\]/m);
      const claude = join(home, 'claude_desktop_config.json');
      await writeFile(claude, `${bom}${JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } })}`);
      const imported = await atrium(home, 'import', claude);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /added github/);
      const stored = JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
      assert.deepEqual(Object.keys(stored.mcpServers).sort(), ['github', 'mine']);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  test('adds the servers of Claude Desktop and VS Code configs without losing what is there', async () => {
    const home = await makeTempDir('atrium-import-');
    try {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { fs: { command: 'mine' } }, note: 'keep me' }));
      const claude = join(home, 'claude_desktop_config.json');
      await writeFile(claude, JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'fs'] }, github: { command: 'gh-mcp', env: { TOKEN: 't' } } } }));
      const vscode = join(home, 'mcp.json');
      await writeFile(vscode, JSON.stringify({ servers: { web: { type: 'http', url: 'https://example.com/mcp' }, broken: { type: 'stdio' } } }));

      const first = await atrium(home, 'import', claude);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /added fs as fs-2 \(the name was taken\)/);
      assert.match(first.stdout, /added github/);
      const second = await atrium(home, 'import', vscode);
      assert.match(second.stdout, /added web/);
      assert.match(second.stderr, /server "broken": a stdio server needs "command"/);
      assert.match(second.stdout, /1 server\(s\) added to .*; 1 left out \(said above\)/);
      assert.equal(second.code, 1, 'an entry left out is a failure a script sees, the others added all the same');

      const stored = JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, unknown>; note: string };
      assert.equal(stored.note, 'keep me');
      assert.deepEqual(Object.keys(stored.mcpServers).sort(), ['fs', 'fs-2', 'github', 'web']);
      assert.deepEqual(stored.mcpServers.fs, { command: 'mine', args: [] });
      const backup = JSON.parse(await readFile(join(home, 'servers.json.bak'), 'utf8')) as { mcpServers: Record<string, unknown> };
      assert.deepEqual(Object.keys(backup.mcpServers).sort(), ['fs', 'fs-2', 'github'], 'the previous file is kept as .bak');

      const again = await atrium(home, 'import', claude);
      assert.match(again.stdout, /0 server\(s\) added/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
