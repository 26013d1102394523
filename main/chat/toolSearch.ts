// Past a threshold of tools (default 64) the model is not sent every tool: it gets one search tool that
// finds tools by name and description and loads the matches for the rest of the turn. The person sees
// which tools were loaded. Sending hundreds of tool definitions costs context and confuses models.

import type { ToolSummary } from '../../shared/domain.ts';
import type { ModelTool } from './llmTypes.ts';

export const DEFAULT_TOOL_THRESHOLD = 64;
export const SEARCH_TOOL_NAME = 'atrium_search_tools';
const DEFAULT_RESULTS = 8;
// Words that would match almost any description.
const STOP_WORDS = new Set(['in', 'on', 'of', 'to', 'an', 'the', 'for', 'and', 'or', 'with', 'my', 'me', 'is', 'it', 'at', 'by', 'from', 'this', 'that']);

export const searchToolDefinition: ModelTool = {
  name: SEARCH_TOOL_NAME,
  description:
    'Find tools by what they do. Many tools are available but not loaded; search with a few keywords, and the matching tools become callable for the rest of this turn.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Keywords describing the task, e.g. "read file" or "create github issue".' },
      limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many tools to load (default 8).' },
    },
    required: ['query'],
  },
};

/** The best matches for a query: every keyword scores where it appears, the name counting most. */
export function searchTools(tools: readonly ToolSummary[], query: string, limit = DEFAULT_RESULTS): ToolSummary[] {
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
  if (words.length === 0) return [];
  const scored = tools.map((tool) => {
    const name = `${tool.serverId} ${tool.name} ${tool.title ?? ''}`.toLowerCase();
    const description = (tool.description ?? '').toLowerCase();
    const score = words.reduce((sum, word) => sum + (name.includes(word) ? 3 : 0) + (description.includes(word) ? 1 : 0), 0);
    return { tool, score };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.tool.modelName < b.tool.modelName ? -1 : 1))
    .slice(0, Math.max(1, Math.min(20, limit)))
    .map((s) => s.tool);
}

export function describeFound(found: readonly ToolSummary[]): string {
  if (found.length === 0) return 'No tool matches that search. Try other keywords.';
  return `Loaded ${found.length} tool(s); you can call them now:\n${found.map((t) => `- ${t.modelName}: ${t.description ?? t.title ?? t.name}`).join('\n')}`;
}
