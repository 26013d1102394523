// Atrium's built-in sample MCP server, shipped with the app so every feature can be tried at once with
// nothing to download: a small notebook with tools of each annotation kind (read-only; writes that are
// not destructive; idempotent; destructive; destructive and open-world), a resource, a resource template
// whose id completes, a prompt whose argument completes, and a tool that asks the person (elicitation).
// It keeps its notes in memory: nothing it does touches the disk or the network.
//   node main/sampleServer/sampleServer.ts
import * as z from 'zod';
import { completable, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const notes = new Map<string, { title: string; text: string; tags: Set<string> }>([
  ['welcome', { title: 'Welcome', text: '# Welcome to Atrium\n\nThis note comes from the **sample server**. Ask the model to read, add, tag or delete notes.', tags: new Set(['intro']) }],
  ['shopping', { title: 'Shopping list', text: '- bread\n- olive oil\n- lemons', tags: new Set(['home']) }],
]);

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const noteIds = (prefix: string) => [...notes.keys()].filter((id) => id.startsWith(prefix));

const server = new McpServer({ name: 'atrium-sample', title: 'Atrium sample notebook', version: '1.0.0' }, { capabilities: { logging: {} } });

server.registerTool(
  'list_notes',
  { title: 'List notes', description: 'Lists the notebook’s notes with their tags.', annotations: { readOnlyHint: true, openWorldHint: false } },
  () => text([...notes].map(([id, note]) => `${id}: ${note.title} [${[...note.tags].join(', ')}]`).join('\n')),
);

server.registerTool(
  'read_note',
  { title: 'Read a note', description: 'Returns a note’s text.', inputSchema: z.object({ id: z.string() }), annotations: { readOnlyHint: true, openWorldHint: false } },
  ({ id }) => {
    const note = notes.get(id);
    return note ? text(note.text) : { content: [{ type: 'text', text: `There is no note "${id}".` }], isError: true };
  },
);

server.registerTool(
  'add_note',
  {
    title: 'Add a note',
    description: 'Adds a note (it does not overwrite one that exists).',
    inputSchema: z.object({ id: z.string().regex(/^[a-z0-9-]{1,40}$/), title: z.string(), text: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  ({ id, title, text: body }) => {
    if (notes.has(id)) return { content: [{ type: 'text', text: `A note "${id}" exists already.` }], isError: true };
    notes.set(id, { title, text: body, tags: new Set() });
    server.sendResourceListChanged();
    return text(`Added "${id}".`);
  },
);

server.registerTool(
  'tag_note',
  {
    title: 'Tag a note',
    description: 'Adds a tag to a note; tagging twice changes nothing.',
    inputSchema: z.object({ id: z.string(), tag: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  ({ id, tag }) => {
    const note = notes.get(id);
    if (!note) return { content: [{ type: 'text', text: `There is no note "${id}".` }], isError: true };
    note.tags.add(tag);
    return text(`"${id}" is tagged ${[...note.tags].join(', ')}.`);
  },
);

server.registerTool(
  'delete_note',
  { title: 'Delete a note', description: 'Deletes a note for good.', inputSchema: z.object({ id: z.string() }), annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false } },
  ({ id }) => {
    const deleted = notes.delete(id);
    if (deleted) server.sendResourceListChanged();
    return deleted ? text(`Deleted "${id}".`) : { content: [{ type: 'text', text: `There is no note "${id}".` }], isError: true };
  },
);

server.registerTool(
  'publish_note',
  {
    title: 'Publish a note',
    description: 'Would publish a note to the web, replacing what is there (a sample: nothing leaves this computer).',
    inputSchema: z.object({ id: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  },
  ({ id }) => text(notes.has(id) ? `"${id}" would now be public (this is only a sample; nothing was sent).` : `There is no note "${id}".`),
);

server.registerTool(
  'ask_for_details',
  {
    title: 'Ask for details',
    description: 'Asks the person for a note’s title and priority (an elicitation form), then returns the answer.',
    inputSchema: z.object({ reason: z.string().default('The model would like a few details.') }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ reason }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: reason,
      requestedSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', title: 'Title', minLength: 1 },
          priority: { type: 'string', title: 'Priority', enum: ['low', 'normal', 'high'], default: 'normal' },
          pinned: { type: 'boolean', title: 'Pin it', default: false },
        },
        required: ['title'],
      },
    });
    return text(JSON.stringify(answer));
  },
);

server.registerResource(
  'welcome-note',
  'sample://notes/welcome',
  { title: 'Welcome note', description: 'The notebook’s first note, as Markdown.', mimeType: 'text/markdown' },
  (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: notes.get('welcome')?.text ?? '(deleted)' }] }),
);

server.registerResource(
  'note',
  new ResourceTemplate('sample://notes/{id}', { list: undefined, complete: { id: (value: string) => noteIds(value) } }),
  { title: 'A note by id', description: 'Any note of the notebook, by its id (completes).', mimeType: 'text/markdown' },
  (uri, { id }) => {
    const note = notes.get(String(id));
    if (!note) throw new Error(`There is no note "${String(id)}".`);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: note.text }] };
  },
);

server.registerPrompt(
  'summarize_notes',
  {
    title: 'Summarise the notebook',
    description: 'Asks the model to summarise every note, in the style you choose.',
    argsSchema: z.object({ style: completable(z.string().describe('brief, detailed or playful'), (value: string) => ['brief', 'detailed', 'playful'].filter((s) => s.startsWith(value))) }),
  },
  ({ style }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Summarise these notes in a ${style} way:\n\n${[...notes.values()].map((n) => `## ${n.title}\n${n.text}`).join('\n\n')}` } }],
  }),
);

await server.connect(new StdioServerTransport());
