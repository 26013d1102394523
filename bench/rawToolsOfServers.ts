// The baseline of bench/cliCall.ts's second case: a plain script with the official SDK client that starts
// N copies of bench/servers/trivialServer.ts in parallel, initializes each, lists their tools, prints how
// many there are and closes them — what `atrium tools` does over N servers, without Atrium.
//   node bench/rawToolsOfServers.ts N
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const count = Number(process.argv[2] ?? '10');
const serverPath = fileURLToPath(new URL('./servers/trivialServer.ts', import.meta.url));
const lists = await Promise.all(
  Array.from({ length: count }, async () => {
    const client = new Client({ name: 'raw', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'ignore' }));
    const { tools } = await client.listTools();
    return { client, tools };
  }),
);
console.log(`${lists.reduce((sum, list) => sum + list.tools.length, 0)} tools`);
await Promise.all(lists.map(({ client }) => client.close()));
