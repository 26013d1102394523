// When the model gets a search tool instead of every tool: past a count (default 64), or when the tools'
// definitions would take more than a share of the model's context (a tenth by default). Sending hundreds
// of definitions costs context and makes models choose worse; what a search finds is loaded for the
// conversation, and the person sees which tools were loaded and why.

import type { ToolSummary } from '../../../shared/domain.ts';

export const DEFAULT_TOOL_THRESHOLD = 64;
/** The share of the model's context that tool definitions may take before the model searches instead (Claude Code's rule). */
export const TOOL_CONTEXT_SHARE = 0.1;

/** The tokens a tool's definition costs the model, estimated at four characters a token (as sent: name, description, schema). */
export function definitionTokens(tool: ToolSummary): number {
  return Math.ceil((tool.modelName.length + (tool.description?.length ?? 0) + JSON.stringify(tool.inputSchema).length) / 4);
}

/**
 * Whether the model gets the search tool instead of every tool: past a count (64 unless the person chose
 * another; beyond it models choose worse), or when the definitions would take more than a tenth of the
 * model's context, whatever their count.
 */
export function deferralVerdict(tools: readonly ToolSummary[], options: { threshold?: number; contextTokens?: number; contextShare?: number }): { searching: boolean; tokens: number; why?: string } {
  const tokens = tools.reduce((sum, tool) => sum + definitionTokens(tool), 0);
  const threshold = options.threshold ?? DEFAULT_TOOL_THRESHOLD;
  if (tools.length > threshold) return { searching: true, tokens, why: `${tools.length} tools are available` };
  const share = options.contextShare ?? TOOL_CONTEXT_SHARE;
  const budget = options.contextTokens === undefined ? Number.POSITIVE_INFINITY : Math.floor(options.contextTokens * share);
  const portion = share === TOOL_CONTEXT_SHARE ? 'a tenth' : `${Math.round(share * 100)}%`;
  if (tokens > budget) return { searching: true, tokens, why: `the ${tools.length} tools' definitions (about ${tokens} tokens) would take more than ${portion} of the model's context` };
  return { searching: false, tokens };
}
