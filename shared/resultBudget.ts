/**
 * How much of a tool result's text a model is given in one piece; past it the result is cut with a marker,
 * and the model reads the rest in pages if it asks (main/chat/toolResultForModel.ts). The window says so on
 * a result this long.
 */
export const DEFAULT_RESULT_BUDGET_CHARS = 100_000;
