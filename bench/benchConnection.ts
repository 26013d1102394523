// Atrium's McpConnection as the benches use it: no restarts, no keep-alive, hooks that do nothing
// unless a bench asks, so what is measured is the connection itself.
import type { ListKind, TraceMessage } from '../shared/contract.ts';
import type { ServerDefinition } from '../main/mcp/config/serverConfig.ts';
import { McpConnection } from '../main/mcp/connection/McpConnection.ts';
import { CachedSchemaValidator } from '../main/mcp/schemaValidatorCache.ts';
import { declineElicitation, refuseSampling } from '../main/host/brokers.ts';

export interface BenchConnectionOptions {
  /** Share one validator between connections, as the hub does. */
  validator?: CachedSchemaValidator;
  onListChanged?: (kind: ListKind) => void;
  /** New trace messages, while the connection's trace is watched (bench/traceOverhead.ts). */
  onTrace?: (messages: TraceMessage[], skipped: number) => void;
}

export function createBenchConnection(definition: ServerDefinition, options: BenchConnectionOptions = {}): McpConnection {
  return new McpConnection(
    definition,
    {
      clientInfo: { name: 'atrium-bench', version: '0.0.0' },
      roots: { list: () => [] },
      sampling: refuseSampling,
      elicitation: declineElicitation,
      validator: options.validator ?? new CachedSchemaValidator(),
      keepAliveMs: 0,
      restartPolicy: { baseDelayMs: 0, maxDelayMs: 0, maxConsecutiveFailures: 1, healthyAfterMs: Number.POSITIVE_INFINITY },
    },
    { onChange: () => {}, onLog: () => {}, onListChanged: options.onListChanged ?? (() => {}), onResourceUpdated: () => {}, ...(options.onTrace ? { onTrace: options.onTrace } : {}) },
  );
}

/** Creates, starts and waits until ready; throws when the server does not start. */
export async function startBenchConnection(definition: ServerDefinition, options: BenchConnectionOptions = {}): Promise<McpConnection> {
  const connection = createBenchConnection(definition, options);
  connection.start();
  await assertReady(connection);
  return connection;
}

export async function assertReady(connection: McpConnection): Promise<void> {
  const status = await connection.whenSettled();
  if (status.kind !== 'ready') throw new Error(`bench server did not start: ${JSON.stringify(status)}`);
}
