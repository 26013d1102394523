// Atrium's McpConnection as the benches use it: no restarts, no keep-alive, hooks that do nothing, so
// what is measured is the connection itself.
import type { ServerDefinition } from '../main/mcp/config/serverConfig.ts';
import { McpConnection } from '../main/mcp/connection/McpConnection.ts';
import { CachedSchemaValidator } from '../main/mcp/schemaValidatorCache.ts';
import { declineElicitation, refuseSampling } from '../main/host/brokers.ts';

export async function startBenchConnection(definition: ServerDefinition, validator = new CachedSchemaValidator()): Promise<McpConnection> {
  const connection = new McpConnection(
    definition,
    {
      clientInfo: { name: 'atrium-bench', version: '0.0.0' },
      roots: { list: () => [] },
      sampling: refuseSampling,
      elicitation: declineElicitation,
      validator,
      keepAliveMs: 0,
      restartPolicy: { baseDelayMs: 0, maxDelayMs: 0, maxConsecutiveFailures: 1, healthyAfterMs: Number.POSITIVE_INFINITY },
    },
    { onChange: () => {}, onLog: () => {}, onListChanged: () => {}, onResourceUpdated: () => {} },
  );
  connection.start();
  const status = await connection.whenSettled();
  if (status.kind !== 'ready') throw new Error(`bench server did not start: ${JSON.stringify(status)}`);
  return connection;
}
