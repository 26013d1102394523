// The tools Atrium itself gives the model (no server runs them): the search for tools, the reader of a
// result too large for the model's budget, and an extension's own (Skills'). Their calls are not tool
// calls of a server; the window shows them as what Atrium did.

import { skillToolSentence } from '../main/mcp/extensions/skills/contract/skillViews.ts';

export const SEARCH_TOOL_NAME = 'atrium_search_tools';
export const READ_RESULT_TOOL_NAME = 'atrium_read_result';

/** What a call of one of Atrium's own tools did, in a sentence; undefined for any other tool. */
export function hostToolSentence(name: string, input: Record<string, unknown>): string | undefined {
  if (name === SEARCH_TOOL_NAME) return `Searched the tools for “${typeof input['query'] === 'string' ? input['query'] : ''}”`;
  if (name === READ_RESULT_TOOL_NAME) {
    const offset = typeof input['offset'] === 'number' ? input['offset'] : 0;
    return `Read a kept result from character ${offset.toLocaleString('en')}`;
  }
  return skillToolSentence(name, input);
}
