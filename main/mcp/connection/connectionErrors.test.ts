import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { toServerError } from './connectionErrors.ts';

/** A loopback port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a remote server nothing answers for is said to be unreachable at its address, with what to check, not "fetch failed"', async () => {
  const address = `http://127.0.0.1:${await closedPort()}/mcp`;
  const fetchError = await fetch(address).then(
    () => assert.fail('nothing should answer'),
    (error: unknown) => error,
  );
  // How the SDK reports it when its first request (the version probe) cannot be sent.
  const wrapped = new SdkError(SdkErrorCode.EraNegotiationFailed, 'Version negotiation probe failed: fetch failed', { cause: fetchError }, { cause: fetchError });
  const failure = toServerError('remote', wrapped, { address });
  assert.equal(failure.code, 'server_unavailable');
  assert.equal(failure.message, `remote: could not reach the server at ${address}. Check that the address is right, that the server is running, and that this computer is online.`);
});

test("a server's error answer is said in its own words, without the protocol code a first-SDK server puts before them", () => {
  const refused = toServerError('everything', new ProtocolError(-32602, 'MCP error -32602: Resource nosuch://x not found'), { what: 'resource "nosuch://x"' });
  assert.equal(refused.message, 'everything: resource "nosuch://x": the server answered with an error: Resource nosuch://x not found');
  assert.equal(toServerError('s', new ProtocolError(-32603, 'database is down')).message, 's: the server answered with an error: database is down');
  assert.equal(toServerError('s', new ProtocolError(-32603, 'MCP error -32603: ')).message, 's: the server answered with an error: MCP error -32603: ', 'nothing but the code: kept');
});
