// What a server offers: its tools, resources, resource templates and prompts, fetched page by page
// (every nextCursor followed, with a cap against a server whose cursors never end), and only for the
// capabilities the server declared. Tools with invalid x-mcp-header declarations are left out here,
// with a warning in the server's log (spec 003).

import type { Client, Prompt, Resource, ResourceTemplateType, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { ListKind } from '../../../shared/contract.ts';
import { checkXMcpHeaders } from '../xMcpHeader.ts';

export const MAX_LIST_PAGES = 1_000;

export interface Catalog {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  prompts: Prompt[];
}

export const emptyCatalog = (): Catalog => ({ tools: [], resources: [], resourceTemplates: [], prompts: [] });

// Every tool call looks its tool up by name; an index per tool list makes that one lookup however many
// tools a server offers. Lists are replaced when they change, never edited, so the list is the key.
const toolIndexes = new WeakMap<Tool[], Map<string, Tool>>();

/** The tool of that name in the catalog, if the server offers one. */
export function toolNamed(catalog: Catalog, name: string): Tool | undefined {
  let index = toolIndexes.get(catalog.tools);
  if (!index) {
    index = new Map();
    // The first of a name wins, as a search from the start would find it.
    for (const tool of catalog.tools) if (!index.has(tool.name)) index.set(tool.name, tool);
    toolIndexes.set(catalog.tools, index);
  }
  return index.get(name);
}

const listMethods = {
  tools: { method: 'tools/list', key: 'tools', capability: 'tools' },
  resources: { method: 'resources/list', key: 'resources', capability: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', key: 'resourceTemplates', capability: 'resources' },
  prompts: { method: 'prompts/list', key: 'prompts', capability: 'prompts' },
} as const;

export interface ListOptions {
  timeoutMs: number;
  warn: (message: string) => void;
}

export function serverOffers(capabilities: ServerCapabilities | undefined, kind: ListKind): boolean {
  return capabilities?.[listMethods[kind].capability] !== undefined;
}

export async function fetchList<K extends ListKind>(client: Client, kind: K, options: ListOptions): Promise<Catalog[K]> {
  const { method, key } = listMethods[kind];
  const items: unknown[] = [];
  let cursor: string | undefined;
  const seenCursors = new Set<string>();
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = (await client.request(
      { method, params: cursor === undefined ? {} : { cursor } },
      { timeout: options.timeoutMs },
    )) as unknown as Record<string, unknown>;
    const pageItems = result[key];
    if (Array.isArray(pageItems)) items.push(...pageItems);
    const next = result.nextCursor;
    if (typeof next !== 'string' || next.length === 0) break;
    if (seenCursors.has(next)) {
      options.warn(`${method}: the server repeated cursor "${next}"; stopped paging`);
      break;
    }
    seenCursors.add(next);
    cursor = next;
  }
  if (kind === 'tools') return dropInvalidTools(items as Tool[], options.warn) as Catalog[K];
  return items as Catalog[K];
}

function dropInvalidTools(tools: Tool[], warn: (message: string) => void): Tool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => {
    const check = checkXMcpHeaders(tool.inputSchema);
    if (!check.valid) {
      warn(`tool "${tool.name}" left out: invalid x-mcp-header declaration (${check.reason})`);
      return false;
    }
    if (seen.has(tool.name)) {
      warn(`tool "${tool.name}" is listed twice; the second definition is ignored`);
      return false;
    }
    seen.add(tool.name);
    return true;
  });
}

/** Every list the server offers, fetched in parallel. */
export async function fetchCatalog(client: Client, options: ListOptions & { debug: (message: string) => void }): Promise<Catalog> {
  const catalog = emptyCatalog();
  const kinds = (['tools', 'resources', 'resourceTemplates', 'prompts'] as const).filter((kind) => serverOffers(client.getServerCapabilities(), kind));
  const lists = await Promise.all(
    kinds.map((kind) =>
      fetchList(client, kind, options).catch((error: unknown) => {
        // resources/templates/list is optional even for servers that offer resources.
        if (kind !== 'resourceTemplates') throw error;
        options.debug(`resources/templates/list failed: ${(error as Error).message}`);
        return [];
      }),
    ),
  );
  kinds.forEach((kind, index) => setList(catalog, kind, lists[index] ?? []));
  return catalog;
}

export function setList(catalog: Catalog, kind: ListKind, list: Catalog[ListKind]): void {
  (catalog as Record<ListKind, Catalog[ListKind]>)[kind] = list;
}
