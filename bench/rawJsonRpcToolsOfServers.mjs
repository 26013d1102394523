// The baseline of bench/toolsTenServers.ts: a script with no dependency at all (no SDK) that starts N
// copies of a stdio server in parallel, speaks raw JSON-RPC over their pipes — initialize, initialized,
// tools/list — prints how many tools they offer, then closes each server's input and waits for it to
// exit, as a careful client does. What `atrium tools` does over N servers, with nothing of Atrium or the
// SDK. Plain JavaScript: Node's type stripping would add some 30 ms to its start, which Atrium, run
// from its bundle, does not pay.
//   node bench/rawJsonRpcToolsOfServers.mjs N SERVER_SCRIPT
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const count = Number(process.argv[2] ?? '10');
const serverPath = process.argv[3] ?? '';

/** @typedef {{ id?: number; result?: { tools?: unknown[] }; error?: unknown }} Answer */

async function toolsOf() {
  // Each in a process group of its own, as Atrium starts servers (to end whatever a server starts): on
  // Linux that also gives each its own share of a busy machine's CPU (autogroups), so both sides get the same.
  const child = spawn(process.execPath, [serverPath], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
  const exited = once(child, 'exit');
  /** @type {Map<number, (answer: Answer) => void>} */
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = /** @type {Answer} */ (JSON.parse(line));
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  let nextId = 0;
  /**
   * @param {string} method
   * @param {unknown} params
   * @returns {Promise<Answer>}
   */
  const request = (method, params) => {
    const id = ++nextId;
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  const initialized = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } });
  if (initialized.error) throw new Error(`initialize failed: ${JSON.stringify(initialized.error)}`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const listed = await request('tools/list', {});
  child.stdin.end();
  return { tools: listed.result?.tools ?? [], exited };
}

const lists = await Promise.all(Array.from({ length: count }, toolsOf));
console.log(`${lists.reduce((sum, list) => sum + list.tools.length, 0)} tools`);
await Promise.all(lists.map((list) => list.exited));
