// Captures the tool lists of real MCP servers from npm into bench/fixtures/toolCatalog.json, the catalog
// the tool-retrieval benchmark ranks (bench/toolRetrieval.ts). Run once, where the servers are installed;
// servers that need keys list their tools without them (the keys here are placeholders, never used), and
// the lists are kept as the servers sent them.
//   mkdir /tmp/toolcat && cd /tmp/toolcat && npm install --ignore-scripts @modelcontextprotocol/server-github …
//   node bench/captureToolCatalog.ts /tmp/toolcat/node_modules
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const modules = process.argv[2];
if (!modules) {
  process.stderr.write('Usage: node bench/captureToolCatalog.ts /path/to/node_modules\n');
  process.exit(1);
}
const ours = fileURLToPath(new URL('../node_modules/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'atrium-catalog-'));

/** Each server: where its entry is, its arguments, and the placeholder keys it wants before it lists tools. */
const servers: Record<string, { entry: string; args?: string[]; env?: Record<string, string> }> = {
  github: { entry: `${modules}/@modelcontextprotocol/server-github/dist/index.js`, env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'placeholder' } },
  gitlab: { entry: `${modules}/@modelcontextprotocol/server-gitlab/dist/index.js`, env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'placeholder' } },
  slack: { entry: `${modules}/@modelcontextprotocol/server-slack/dist/index.js`, env: { SLACK_BOT_TOKEN: 'placeholder', SLACK_TEAM_ID: 'T0000' } },
  memory: { entry: `${modules}/@modelcontextprotocol/server-memory/dist/index.js`, env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } },
  postgres: { entry: `${modules}/@modelcontextprotocol/server-postgres/dist/index.js`, args: ['postgresql://localhost:9/placeholder'] },
  puppeteer: { entry: `${modules}/@modelcontextprotocol/server-puppeteer/dist/index.js` },
  maps: { entry: `${modules}/@modelcontextprotocol/server-google-maps/dist/index.js`, env: { GOOGLE_MAPS_API_KEY: 'placeholder' } },
  brave: { entry: `${modules}/@modelcontextprotocol/server-brave-search/dist/index.js`, env: { BRAVE_API_KEY: 'placeholder' } },
  thinking: { entry: `${modules}/@modelcontextprotocol/server-sequential-thinking/dist/index.js` },
  everart: { entry: `${modules}/@modelcontextprotocol/server-everart/dist/index.js`, env: { EVERART_API_KEY: 'placeholder' } },
  awskb: { entry: `${modules}/@modelcontextprotocol/server-aws-kb-retrieval/dist/index.js`, env: { AWS_ACCESS_KEY_ID: 'placeholder', AWS_SECRET_ACCESS_KEY: 'placeholder', AWS_REGION: 'us-east-1' } },
  notion: { entry: `${modules}/@notionhq/notion-mcp-server/bin/cli.mjs`, env: { NOTION_TOKEN: 'placeholder' } },
  playwright: { entry: `${modules}/@playwright/mcp/cli.js` },
  firecrawl: { entry: `${modules}/firecrawl-mcp/dist/index.js`, env: { FIRECRAWL_API_KEY: 'fc-placeholder' } },
  context7: { entry: `${modules}/@upstash/context7-mcp/dist/index.js` },
  tavily: { entry: `${modules}/tavily-mcp/build/index.js`, env: { TAVILY_API_KEY: 'tvly-placeholder' } },
  mongodb: { entry: `${modules}/mongodb-mcp-server/dist/esm/index.js`, env: { MDB_MCP_TELEMETRY: 'disabled' } },
  filesystem: { entry: `${ours}@modelcontextprotocol/server-filesystem/dist/index.js`, args: [scratch] },
  everything: { entry: `${ours}@modelcontextprotocol/server-everything/dist/index.js`, args: ['stdio'] },
};

interface CapturedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
}

const catalog: Record<string, CapturedTool[]> = {};
for (const [id, server] of Object.entries(servers)) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [server.entry, ...(server.args ?? [])], env: { PATH: process.env['PATH'] ?? '', HOME: scratch, ...server.env }, stderr: 'ignore' });
  const client = new Client({ name: 'atrium-catalog', version: '1' });
  try {
    await client.connect(transport);
    const tools: CapturedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      for (const tool of page.tools) tools.push({ name: tool.name, ...(tool.title ? { title: tool.title } : {}), ...(tool.description ? { description: tool.description } : {}), inputSchema: tool.inputSchema });
      cursor = page.nextCursor;
    } while (cursor);
    catalog[id] = tools;
    process.stdout.write(`${id}: ${tools.length} tools\n`);
  } catch (error) {
    process.stdout.write(`${id}: not captured (${(error as Error).message})\n`);
  } finally {
    await client.close().catch(() => undefined);
  }
}
const out = fileURLToPath(new URL('./fixtures/toolCatalog.json', import.meta.url));
writeFileSync(out, `${JSON.stringify(catalog, null, 1)}\n`);
process.stdout.write(`${Object.values(catalog).reduce((n, tools) => n + tools.length, 0)} tools from ${Object.keys(catalog).length} servers in ${out}\n`);
