// When the model gets a tool search instead of every tool, unless the person chose otherwise in Settings:
// what the host decides by (main/host/tools/toolDeferral.ts) and what Settings shows as the default.

/** More tools than this and the model searches for the ones it needs: beyond it models choose worse. */
export const DEFAULT_TOOL_THRESHOLD = 64;

/**
 * The share of the model's context (percent) the tools' definitions may take before the model searches
 * instead: a quarter leaves a small local model (8,000 tokens and up) most of its context for the
 * conversation, and sends a few servers' tools whole to one of 32,000.
 */
export const DEFAULT_TOOL_CONTEXT_PERCENT = 25;
