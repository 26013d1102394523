// A server whose lists change while connected, to prove the host refreshes tools, prompts and
// resources on list_changed, re-reads subscribed resources, follows pagination cursors and offers
// completions. Built on the low-level Server because McpServer answers tools/list in one page.
//
// Tools (tools/list is paginated, 2 per page, so a client must follow nextCursor):
//   add_tool {name}        registers a tool `name` (it answers "I am <name>") + tools/list_changed
//   touch_resource {}      increments fixture://counter + resources/updated for it
//   counter_value {}       returns the counter
// Prompt `greet` {name} (name completes from a fixed list); resource fixture://counter; resource
// template fixture://items/{id} (id completes from 1..5).
//
//   node e2e/servers/listChangedServer.ts                      stdio, both protocol eras
//   node e2e/servers/listChangedServer.ts --http [--port 0]    Streamable HTTP at /mcp, prints `listening <url>`
// Over HTTP the 2025 era is served statelessly (no GET stream), so change notifications reach only
// 2026-07-28 clients, through subscriptions/listen.
import { parseArgs } from 'node:util';
import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { httpArgs, listenHttp, toNodeListener } from './listenHttp.ts';

const PAGE_SIZE = 2;
const COUNTER_URI = 'fixture://counter';
const ITEM_TEMPLATE = 'fixture://items/{id}';
const GREET_NAMES = ['Ada', 'Alan', 'Alonzo', 'Barbara', 'Grace', 'Guido', 'Linus'];
const ITEM_IDS = ['1', '2', '3', '4', '5'];

/** What a tool handler may announce; stdio sends through the instance, HTTP through the handler's bus. */
interface Announcer {
  toolsChanged(): void;
  resourceUpdated(uri: string): void;
}

// State lives outside the per-connection (stdio) or per-request (HTTP) instances so it survives them.
const addedTools: string[] = [];
let counter = 0;
const subscribed = new Set<string>();

const STATIC_TOOLS: Tool[] = [
  {
    name: 'add_tool',
    description: 'Registers a new tool with the given name and sends notifications/tools/list_changed.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  {
    name: 'touch_resource',
    description: `Increments ${COUNTER_URI} and sends notifications/resources/updated for it.`,
    inputSchema: { type: 'object', additionalProperties: false },
  },
  {
    name: 'counter_value',
    description: `Returns the current value of ${COUNTER_URI}.`,
    inputSchema: { type: 'object', additionalProperties: false },
  },
];

function allTools(): Tool[] {
  return [
    ...STATIC_TOOLS,
    ...addedTools.map((name): Tool => ({
      name,
      description: `Added at runtime by add_tool; answers "I am ${name}".`,
      inputSchema: { type: 'object', additionalProperties: false },
    })),
  ];
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function createListChangedServer(era: 'legacy' | 'modern', announce: (server: Server) => Announcer): Server {
  const server = new Server(
    { name: 'list-changed-server', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        completions: {},
      },
    },
  );
  const announcer = announce(server);

  server.setRequestHandler('tools/list', (request) => {
    // Logged so a test can assert the client walked every page.
    process.stderr.write(`tools/list cursor=${request.params?.cursor ?? 'none'}\n`);
    const tools = allTools();
    const start = Number(request.params?.cursor ?? '0');
    if (!Number.isInteger(start) || start < 0 || start > tools.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${String(request.params?.cursor)}`);
    }
    const end = start + PAGE_SIZE;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });

  server.setRequestHandler('tools/call', (request) => {
    const { name, arguments: args } = request.params;
    switch (name) {
      case 'add_tool': {
        const newName = args?.['name'];
        if (typeof newName !== 'string' || newName === '') return { ...text('add_tool needs a non-empty name'), isError: true };
        if (!addedTools.includes(newName) && !STATIC_TOOLS.some((tool) => tool.name === newName)) addedTools.push(newName);
        announcer.toolsChanged();
        return text(`added ${newName}`);
      }
      case 'touch_resource':
        counter++;
        // A 2025 server notifies only subscribers; on 2026-07-28 the listen router filters for us.
        if (era === 'modern' || subscribed.has(COUNTER_URI)) announcer.resourceUpdated(COUNTER_URI);
        return text(String(counter));
      case 'counter_value':
        return text(String(counter));
      default:
        if (addedTools.includes(name)) return text(`I am ${name}`);
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
  });

  server.setRequestHandler('prompts/list', () => ({
    prompts: [
      {
        name: 'greet',
        description: 'Greets someone by name.',
        arguments: [{ name: 'name', description: 'Who to greet', required: true }],
      },
    ],
  }));

  server.setRequestHandler('prompts/get', (request) => {
    if (request.params.name !== 'greet') {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    }
    const name = request.params.arguments?.['name'] ?? 'world';
    return { messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}!` } }] };
  });

  server.setRequestHandler('completion/complete', (request) => {
    const { ref, argument } = request.params;
    let candidates: string[] = [];
    if (ref.type === 'ref/prompt' && ref.name === 'greet' && argument.name === 'name') candidates = GREET_NAMES;
    if (ref.type === 'ref/resource' && ref.uri === ITEM_TEMPLATE && argument.name === 'id') candidates = ITEM_IDS;
    const values = candidates.filter((candidate) => candidate.toLowerCase().startsWith(argument.value.toLowerCase()));
    return { completion: { values, total: values.length, hasMore: false } };
  });

  server.setRequestHandler('resources/list', () => ({
    resources: [{ uri: COUNTER_URI, name: 'counter', description: 'Incremented by touch_resource.', mimeType: 'text/plain' }],
  }));

  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [{ uriTemplate: ITEM_TEMPLATE, name: 'item', description: 'Item by id.', mimeType: 'text/plain' }],
  }));

  server.setRequestHandler('resources/read', (request) => {
    const { uri } = request.params;
    if (uri === COUNTER_URI) return { contents: [{ uri, mimeType: 'text/plain', text: String(counter) }] };
    const item = /^fixture:\/\/items\/([^/]+)$/.exec(uri);
    if (item) return { contents: [{ uri, mimeType: 'text/plain', text: `item ${item[1]}` }] };
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`);
  });

  if (era === 'legacy') {
    server.setRequestHandler('resources/subscribe', (request) => {
      subscribed.add(request.params.uri);
      process.stderr.write(`subscribed ${request.params.uri}\n`);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', (request) => {
      subscribed.delete(request.params.uri);
      process.stderr.write(`unsubscribed ${request.params.uri}\n`);
      return {};
    });
  }

  return server;
}

const { values } = parseArgs({ strict: false, options: { http: { type: 'boolean', default: false } } });

if (values.http) {
  const handler = createMcpHandler(({ era }) =>
    createListChangedServer(era, () => ({
      toolsChanged: () => handler.notify.toolsChanged(),
      resourceUpdated: (uri) => handler.notify.resourceUpdated(uri),
    })),
  );
  await listenHttp(toNodeListener(handler.fetch), { ...httpArgs(), path: '/mcp' });
} else {
  serveStdio(({ era }) =>
    createListChangedServer(era, (server) => ({
      toolsChanged: () => void server.sendToolListChanged(),
      resourceUpdated: (uri) => void server.sendResourceUpdated({ uri }),
    })),
  );
}
