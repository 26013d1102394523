// A tool result larger than the model's budget is not lost to it: the model gets what fits, with a marker
// that names the call, and a host tool that reads the rest of the kept result in pages. The whole result
// is already saved with the call (the person sees it whole); this reads that, never the server again.

import type { ToolResultContent } from '../../shared/conversation.ts';
import { READ_RESULT_TOOL_NAME } from '../../shared/hostTools.ts';
import type { ModelTool } from './llmTypes.ts';

export { READ_RESULT_TOOL_NAME };

/** The most one page gives; a longer `length` is cut to it. */
export const MAX_PAGE_CHARS = 50_000;

export const readResultToolDefinition: ModelTool = {
  name: READ_RESULT_TOOL_NAME,
  description:
    'Read more of a tool result that was too long to give you whole. A cut result ends with a note naming its callId and where it stopped; call this with that callId and offset to read the next part.',
  inputSchema: {
    type: 'object',
    properties: {
      callId: { type: 'string', description: 'The callId the note names.' },
      offset: { type: 'integer', minimum: 0, description: 'The character to start from (the note says where the part you have ends).' },
      length: { type: 'integer', minimum: 1, maximum: MAX_PAGE_CHARS, description: `How many characters to read (default and most: ${MAX_PAGE_CHARS}).` },
    },
    required: ['callId', 'offset'],
  },
};

/** Whether a conversation's messages carry a cut result, so the model still has the reader in a later turn. */
export function mentionsCutResult(texts: Iterable<string>): boolean {
  for (const text of texts) if (text.includes(`${READ_RESULT_TOOL_NAME} {"callId"`)) return true;
  return false;
}

/** One page of a kept result's text (its text blocks joined, as the model got its first part). */
export function readPage(text: string | undefined, callId: string, offset: number, length = MAX_PAGE_CHARS): string {
  if (text === undefined) return `There is no kept result for the call "${callId}" in this conversation.`;
  const size = Math.min(Math.max(1, length), MAX_PAGE_CHARS);
  if (offset >= text.length) return `The result of "${callId}" has ${text.length} characters; there is nothing from ${offset} on.`;
  const end = Math.min(text.length, offset + size);
  const more = end < text.length ? ` ${text.length - end} more: call ${READ_RESULT_TOOL_NAME} {"callId": "${callId}", "offset": ${end}}` : ' That is the end of the result.';
  return `${text.slice(offset, end)}\n[characters ${offset}–${end} of ${text.length}.${more}]`;
}

/** The text of converted content, as one string (images are not text). */
export function textOf(content: readonly ToolResultContent[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}
