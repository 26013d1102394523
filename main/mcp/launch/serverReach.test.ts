import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RemoteServerDefinition } from '../config/serverConfig.ts';
import { serverReach } from './serverReach.ts';

const remote = (url: string): RemoteServerDefinition => ({ id: 'r', disabled: false, transport: 'http', url, headers: {} });

test('a remote server on this computer (a loopback address) is not said to be on another computer, nor to reach nothing here', () => {
  for (const url of ['http://127.0.0.1:9/mcp', 'http://localhost:3000/mcp', 'http://[::1]:8080/mcp', 'http://api.localhost/mcp']) {
    const { where, sandboxed, summary } = serverReach(remote(url));
    assert.equal(where, 'remote', url);
    assert.equal(sandboxed, false, url);
    assert.match(summary, /already running on this computer/, url);
    assert.doesNotMatch(summary, /another computer|nothing on this computer/, url);
  }
});

test('a server on the local network may be this computer too; one on the internet is another computer', () => {
  const local = serverReach(remote('http://192.168.1.20:8080/mcp')).summary;
  assert.match(local, /local network/);
  assert.doesNotMatch(local, /nothing on this computer/);
  assert.match(serverReach(remote('https://mcp.example.com/mcp')).summary, /^It runs on another computer \(mcp\.example\.com\)/);
});
