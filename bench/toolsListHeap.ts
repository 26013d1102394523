// Heap growth over 1,000 re-lists of a server whose 50 tools all have an outputSchema, each followed by a
// call to one of those tools, so the SDK asks the client's JSON Schema validator for that tool's validator
// every time. (a) Atrium: McpConnection with the host's CachedSchemaValidator; (b) the bare SDK Client with
// its default validator, as the reference. Target: no heap growth for (a) (SDK v1 grew 55 MB by recompiling
// an ajv validator per tool per list).
//
// How (a) re-lists: the server's `announce_change` tool sends notifications/tools/list_changed, and the
// connection answers it as in production (SDK debounce → McpConnection's private refreshList → fetchList →
// a fresh catalog of fresh tool objects → onListChanged hook). The following callTool hands the fresh tool
// object to the SDK as `toolDefinition`, which makes the SDK call getValidator on it; a validator that
// recompiled per schema object would grow here. The SDK debounces list_changed by 50 ms, so 1,000 refreshes
// on one connection would take 50 s; they are spread over CONNECTIONS connections to the same server
// program that share one validator, exactly as the hub shares it between servers.
// (b) re-lists with listTools(), how SDK users re-list; the next callTool then rebuilds the SDK's
// name → validator index from the new list, which compiles every tool's outputSchema again.
//
// Each side runs in its own `node --expose-gc` child process, so one side's garbage cannot land in the
// other's measurement; the script re-executes itself for that.
import { spawnSync } from 'node:child_process';
import { getHeapSpaceStatistics } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CachedSchemaValidator } from '../main/mcp/schemaValidatorCache.ts';
import { assertReady, createBenchConnection } from './benchConnection.ts';

const REFRESHES = 1_000;
// The reference compiles all 50 schemas on every re-list (≈ 50 ms each): 1,000 would take about a minute,
// so it runs fewer re-lists and its growth is also shown scaled to 1,000.
const SDK_REFRESHES = 250;
const CONNECTIONS = 5;
const TOOLS = 50;
const WARMUP_REFRESHES_PER_CONNECTION = 10;
const TARGET_GROWTH_MB = 1;

const serverPath = fileURLToPath(new URL('./servers/outputSchemaServer.ts', import.meta.url));
const scriptPath = fileURLToPath(import.meta.url);
const clientInfo = { name: 'atrium-bench', version: '0.0.0' };
const MB = 1024 * 1024;

type Heap = { total: number; code: number };
type PartResult = {
  part: 'atrium' | 'sdk';
  refreshes: number;
  before: Heap;
  after: Heap;
  seconds: number;
  validatorSize?: number;
  logLines?: number;
};

/** Used heap after a full GC, in MB, and how much of it is machine code (the JIT's, not the program's data). */
function heapAfterGc(): Heap {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  // Twice: the first pass can leave objects that only a second pass finds unreachable (weak callbacks).
  gc();
  gc();
  const spaces = getHeapSpaceStatistics();
  const used = (pick: (name: string) => boolean) => spaces.filter((s) => pick(s.space_name)).reduce((sum, s) => sum + s.space_used_size, 0) / MB;
  return { total: used(() => true), code: used((name) => name.startsWith('code')) };
}

function assertStructured(result: { structuredContent?: unknown; isError?: boolean }, tool: string): void {
  if (result.isError || result.structuredContent === undefined) throw new Error(`${tool} returned no structured content`);
}

async function measureAtrium(): Promise<PartResult> {
  const validator = new CachedSchemaValidator();
  const connections = Array.from({ length: CONNECTIONS }, (_, index) => {
    let listChanged: (() => void) | undefined;
    const connection = createBenchConnection(
      { id: `heap-${index}`, transport: 'stdio', command: process.execPath, args: [serverPath], env: {}, disabled: false },
      { validator, onListChanged: (kind) => kind === 'tools' && listChanged?.() },
    );
    /** One re-list through the production path: list_changed from the server, then the connection's refresh. */
    const relist = async (): Promise<void> => {
      const refreshed = new Promise<void>((resolve) => (listChanged = resolve));
      await connection.callTool('announce_change', {});
      await refreshed;
    };
    return { connection, relist };
  });
  for (const { connection } of connections) connection.start();
  for (const { connection } of connections) {
    await assertReady(connection);
    if (connection.tools.length !== TOOLS + 1) throw new Error(`expected ${TOOLS + 1} tools, got ${connection.tools.length}`);
  }

  const cycle = async (index: number, refreshes: number, offset: number): Promise<void> => {
    const own = connections[index];
    if (!own) return;
    for (let i = 0; i < refreshes; i++) {
      await own.relist();
      const tool = `tool_${(offset + i * CONNECTIONS + index) % TOOLS}`;
      assertStructured(await own.connection.callTool(tool, {}), tool);
    }
  };
  // Warm-up calls every tool at least once, so every schema is compiled before the baseline.
  for (let t = 0; t < TOOLS; t++) assertStructured(await connections[0]!.connection.callTool(`tool_${t}`, {}), `tool_${t}`);
  await Promise.all(connections.map((_, index) => cycle(index, WARMUP_REFRESHES_PER_CONNECTION, 0)));

  const before = heapAfterGc();
  const started = performance.now();
  await Promise.all(connections.map((_, index) => cycle(index, REFRESHES / CONNECTIONS, 0)));
  const seconds = (performance.now() - started) / 1000;
  const after = heapAfterGc();
  const validatorSize = validator.size;
  const logLines = connections.reduce((sum, { connection }) => sum + connection.log.recent().length, 0);
  for (const { connection } of connections) await connection.stop();
  return { part: 'atrium', refreshes: REFRESHES, before, after, seconds, validatorSize, logLines };
}

async function measureSdk(): Promise<PartResult> {
  const client = new Client(clientInfo);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'ignore' }));
  const cycle = async (refreshes: number): Promise<void> => {
    for (let i = 0; i < refreshes; i++) {
      const { tools } = await client.listTools(undefined, { cacheMode: 'refresh' });
      if (tools.length !== TOOLS + 1) throw new Error(`expected ${TOOLS + 1} tools, got ${tools.length}`);
      const tool = `tool_${i % TOOLS}`;
      assertStructured(await client.callTool({ name: tool, arguments: {} }), tool);
    }
  };
  await cycle(WARMUP_REFRESHES_PER_CONNECTION);
  const before = heapAfterGc();
  const started = performance.now();
  await cycle(SDK_REFRESHES);
  const seconds = (performance.now() - started) / 1000;
  const after = heapAfterGc();
  await client.close();
  return { part: 'sdk', refreshes: SDK_REFRESHES, before, after, seconds };
}

const partIndex = process.argv.indexOf('--part');
if (partIndex !== -1) {
  const part = process.argv[partIndex + 1];
  const result = part === 'atrium' ? await measureAtrium() : await measureSdk();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const runPart = (part: 'atrium' | 'sdk'): PartResult => {
    const child = spawnSync(process.execPath, ['--expose-gc', scriptPath, '--part', part], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const line = child.stdout.trim().split('\n').at(-1);
    if (child.status !== 0 || !line) throw new Error(`the ${part} part failed (exit ${child.status})`);
    return JSON.parse(line) as PartResult;
  };
  const atrium = runPart('atrium');
  const sdk = runPart('sdk');
  const growth = (r: PartResult) => r.after.total - r.before.total;
  const dataGrowth = (r: PartResult) => growth(r) - (r.after.code - r.before.code);
  console.log(`tools/list heap: re-lists of ${TOOLS} tools with output schemas, each followed by a call to one of them; heap after full GC`);
  console.table(
    Object.fromEntries(
      [atrium, sdk].map((r) => [
        r.part,
        {
          're-lists': r.refreshes,
          'heap before MB': r.before.total.toFixed(1),
          'heap after MB': r.after.total.toFixed(1),
          'growth MB': growth(r).toFixed(2),
          'of which JIT code MB': (r.after.code - r.before.code).toFixed(2),
          'growth w/o code MB': dataGrowth(r).toFixed(2),
          'per 1,000 re-lists MB': ((dataGrowth(r) * 1_000) / r.refreshes).toFixed(1),
          seconds: r.seconds.toFixed(1),
        },
      ]),
    ),
  );
  console.log(
    `a (atrium, ${CONNECTIONS} connections sharing one validator): growth w/o code ${dataGrowth(atrium).toFixed(2)} MB over ${REFRESHES} re-lists; ` +
      `CachedSchemaValidator.size ${atrium.validatorSize} (distinct schemas: ${TOOLS}); the servers' logs hold ${atrium.logLines} lines (capped at 2,000 each)`,
  );
  const sdkPer1000 = (dataGrowth(sdk) * 1_000) / sdk.refreshes;
  console.log(`b (bare SDK, default validator): growth w/o code ${dataGrowth(sdk).toFixed(1)} MB over ${sdk.refreshes} re-lists ≈ ${sdkPer1000.toFixed(0)} MB per 1,000 (scaled)`);
  console.log(`a/b per 1,000 re-lists: ${(dataGrowth(atrium) / sdkPer1000).toFixed(3)}×`);
  const met = dataGrowth(atrium) <= TARGET_GROWTH_MB && atrium.validatorSize === TOOLS;
  console.log(`target: no heap growth over 1,000 re-lists (≤ ${TARGET_GROWTH_MB} MB besides JIT code, one compile per distinct schema) ${met ? 'MET' : 'MISSED'}`);
}
