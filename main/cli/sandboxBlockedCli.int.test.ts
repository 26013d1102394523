// `atrium call` of a tool its sandbox kept from a file: server-filesystem given its folder as an argument
// (as its own README configures it) reads it but cannot write it, and says so only in its tool result.
// The command says what the sandbox kept from it and the setting that lets it; with that setting in its
// entry, approved, the same call writes the file.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';

const linuxOnly = process.platform === 'linux' ? {} : { skip: 'the sandbox this checks is bubblewrap (Linux)' };
const serverFilesystem = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url));

describe('atrium call, when the sandbox kept the server from a file', linuxOnly, () => {
  let home: string;
  let folder: string;
  before(async () => {
    home = await makeTempDir('atrium-sandbox-blocked-cli-');
    // In the home folder, which the sandbox hides but for what the server's arguments name.
    folder = await realpath(await mkdtemp(join(homedir(), '.atrium-sandbox-blocked-cli-')));
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [serverFilesystem, folder] } } }));
    const approved = await runAtriumCli(home, ['servers', 'approve', 'notes']);
    assert.equal(approved.code, 0, approved.stderr);
  });
  after(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  test('says what the sandbox kept from it and how to let it; with that setting the write goes through', async () => {
    const target = join(folder, 'todo.md');
    const refused = await runAtriumCli(home, ['call', 'notes', 'write_file', `path=${target}`, 'content=first try']);
    assert.equal(refused.code, 1, refused.stderr);
    const allowWrite = `"sandbox": {"filesystem": {"allowWrite": ${JSON.stringify([folder])}}}`;
    assert.ok(
      refused.stderr.includes(`atrium: notes: its sandbox kept it from writing ${target}. To let it: ${allowWrite} in its entry of servers.json, then atrium servers approve notes; or Allow for this server on its card in the window.`),
      refused.stderr,
    );

    // The person follows the line: the setting in the server's entry, and the wider sandbox approved.
    const servers = JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { mcpServers: { notes: Record<string, unknown> } };
    servers.mcpServers.notes.sandbox = { filesystem: { allowWrite: [folder] } };
    await writeFile(join(home, 'servers.json'), JSON.stringify(servers));
    const approved = await runAtriumCli(home, ['servers', 'approve', 'notes']);
    assert.equal(approved.code, 0, approved.stderr);
    const written = await runAtriumCli(home, ['call', 'notes', 'write_file', `path=${target}`, 'content=second try']);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(readFileSync(target, 'utf8'), 'second try');
  });
});
