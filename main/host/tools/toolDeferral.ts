// When the model gets a search tool instead of every tool: past a count (default 64), or when the tools'
// definitions would take more than a share of the model's context (a quarter by default). Sending hundreds
// of definitions costs context and makes models choose worse; what a search finds is loaded for the
// conversation, and the person sees which tools were loaded and why.

import type { ToolSummary } from '../../../shared/domain.ts';
import { DEFAULT_TOOL_CONTEXT_PERCENT, DEFAULT_TOOL_THRESHOLD } from '../../../shared/toolDeferralDefaults.ts';
import type { ModelContext } from '../../chat/turnTools.ts';

export { DEFAULT_TOOL_THRESHOLD };
/** The share of the model's context that tool definitions may take before the model searches instead. */
export const TOOL_CONTEXT_SHARE = DEFAULT_TOOL_CONTEXT_PERCENT / 100;

/** The tokens a tool's definition costs the model, estimated at four characters a token (as sent: name, description, schema). */
export function definitionTokens(tool: ToolSummary): number {
  return Math.ceil((tool.modelName.length + (tool.description?.length ?? 0) + JSON.stringify(tool.inputSchema).length) / 4);
}

/**
 * Whether the model gets the search tool instead of every tool: past a count (64 unless the person chose
 * another; beyond it models choose worse), or when the definitions would take more than a share of the
 * model's context (a quarter unless the person chose another), whatever their count. `why` is said in
 * the chat, with the numbers it was decided by.
 */
export function deferralVerdict(tools: readonly ToolSummary[], options: { threshold?: number; context?: ModelContext; contextShare?: number }): { searching: boolean; tokens: number; why?: string } {
  const tokens = tools.reduce((sum, tool) => sum + definitionTokens(tool), 0);
  const threshold = options.threshold ?? DEFAULT_TOOL_THRESHOLD;
  if (tools.length > threshold) return { searching: true, tokens, why: `${tools.length} tools are available` };
  const { context } = options;
  const share = options.contextShare ?? TOOL_CONTEXT_SHARE;
  if (context === undefined || tokens <= Math.floor(context.tokens * share)) return { searching: false, tokens };
  const size = context.reported ? `${number(context.tokens)} tokens, as its server reports` : `taken as ${number(context.tokens)} tokens for this kind of provider`;
  return { searching: true, tokens, why: `the ${tools.length} tools' definitions (about ${number(tokens)} tokens) would take more than ${portion(share)} of the model's context (${size})` };
}

function portion(share: number): string {
  const words: Record<number, string> = { 0.1: 'a tenth', 0.25: 'a quarter', 0.5: 'half' };
  return words[share] ?? `${Math.round(share * 100)}%`;
}

function number(value: number): string {
  return value.toLocaleString('en-US');
}
