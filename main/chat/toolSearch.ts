// Past a threshold of tools (default 64) the model is not sent every tool: it gets one search tool that
// finds tools by what they do (ranked by toolRanking.ts) and loads the matches for the rest of the turn.
// The person sees which tools were loaded. Sending hundreds of tool definitions costs context and
// confuses models.

import type { ToolSearchHit, ToolSummary } from '../../shared/domain.ts';
import type { ModelTool } from './llmTypes.ts';
import { createToolIndex } from './toolRanking.ts';

export const DEFAULT_TOOL_THRESHOLD = 64;
export const SEARCH_TOOL_NAME = 'atrium_search_tools';
export const DEFAULT_RESULTS = 8;
export const MAX_RESULTS = 20;

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

/** The best matches for a query with their scores, best first (at most 20): what the model's search loads. */
export function rankTools(tools: readonly ToolSummary[], query: string, limit = DEFAULT_RESULTS): ToolSearchHit[] {
  return createToolIndex(tools).search(query, Math.max(1, Math.min(MAX_RESULTS, limit)));
}

/** The best matches for a query, best first (at most 20). */
export function searchTools(tools: readonly ToolSummary[], query: string, limit = DEFAULT_RESULTS): ToolSummary[] {
  return rankTools(tools, query, limit).map((hit) => hit.tool);
}

export function describeFound(found: readonly ToolSummary[]): string {
  if (found.length === 0) return 'No tool matches that search. Try other keywords.';
  return `Loaded ${found.length} tool(s); you can call them now:\n${found.map((t) => `- ${t.modelName}: ${t.description ?? t.title ?? t.name}`).join('\n')}`;
}
