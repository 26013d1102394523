// Past a threshold of tools (default 64), or when their definitions would take more than a tenth of the
// model's context, the model is not sent every tool: it gets one search tool that finds tools by what they
// do (ranked by toolRanking.ts) and loads the matches, which stay loaded for the conversation.
// The person sees which tools were loaded. Sending hundreds of tool definitions costs context and
// confuses models.

import type { ToolSearchHit, ToolSummary } from '../../shared/domain.ts';
import type { ProviderKind } from '../../shared/contract.ts';
import type { ModelTool } from './llmTypes.ts';
import { createToolIndex } from './toolRanking.ts';
import { SEARCH_TOOL_NAME } from '../../shared/hostTools.ts';

export const DEFAULT_TOOL_THRESHOLD = 64;
/** The share of the model's context that tool definitions may take before the model searches instead (Claude Code's rule). */
export const TOOL_CONTEXT_SHARE = 0.1;

/**
 * The context a provider's models have, when nothing more precise is known: what the hosted APIs' current
 * models take, and a small local model's for OpenAI-compatible servers (Ollama's and llama.cpp's defaults are smaller still).
 */
export const CONTEXT_TOKENS_BY_KIND: Record<ProviderKind, number> = {
  anthropic: 200_000,
  openai: 128_000,
  'openai-responses': 128_000,
  'openai-compatible': 32_000,
};

/** The tokens a tool's definition costs the model, estimated at four characters a token (as sent: name, description, schema). */
export function definitionTokens(tool: ToolSummary): number {
  return Math.ceil((tool.modelName.length + (tool.description?.length ?? 0) + JSON.stringify(tool.inputSchema).length) / 4);
}

/**
 * Whether the model gets the search tool instead of every tool: past a count (64 unless the person chose
 * another; beyond it models choose worse), or when the definitions would take more than a tenth of the
 * model's context, whatever their count.
 */
export function shouldSearch(tools: readonly ToolSummary[], options: { threshold?: number; contextTokens?: number; contextShare?: number }): { searching: boolean; tokens: number; why?: string } {
  const tokens = tools.reduce((sum, tool) => sum + definitionTokens(tool), 0);
  const threshold = options.threshold ?? DEFAULT_TOOL_THRESHOLD;
  if (tools.length > threshold) return { searching: true, tokens, why: `${tools.length} tools are available` };
  const share = options.contextShare ?? TOOL_CONTEXT_SHARE;
  const budget = options.contextTokens === undefined ? Number.POSITIVE_INFINITY : Math.floor(options.contextTokens * share);
  const portion = share === TOOL_CONTEXT_SHARE ? 'a tenth' : `${Math.round(share * 100)}%`;
  if (tokens > budget) return { searching: true, tokens, why: `the ${tools.length} tools' definitions (about ${tokens} tokens) would take more than ${portion} of the model's context` };
  return { searching: false, tokens };
}
export { SEARCH_TOOL_NAME };
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
