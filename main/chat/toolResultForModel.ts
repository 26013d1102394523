// What of an MCP tool result goes back to the model. Content annotations route it (audience ["user"] is
// for the person only), every content type becomes something a model can read, and a result larger than
// the budget is cut with an explicit marker, dropping low-priority content first; the full result stays
// in the history, for the person and for the model, which reads the rest in pages (resultPages.ts).

import type { ToolResultContent } from '../../shared/conversation.ts';
import { plainValue } from '../../shared/serverText.ts';
import { base64ByteCount, textOfBytes } from '../../shared/blobText.ts';
import { READ_RESULT_TOOL_NAME, textOf } from './resultPages.ts';
import { DEFAULT_RESULT_BUDGET_CHARS } from '../../shared/resultBudget.ts';

export interface ModelToolResult {
  content: ToolResultContent[];
  isError: boolean;
  /** True when content was dropped or cut to fit the budget. */
  truncated: boolean;
  /** All the result's text as the model reads it, uncut: what its pages are read from. */
  fullText: string;
}

interface Block {
  type?: unknown;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
  annotations?: { audience?: unknown; priority?: unknown };
}


/**
 * The result as the model gets it. With `callId`, a cut result's marker tells the model how to read the
 * rest of the kept text (from where its part ends, when what it got is the text's beginning).
 */
export function toolResultForModel(marked: Record<string, unknown>, budgetChars = DEFAULT_RESULT_BUDGET_CHARS, callId?: string): ModelToolResult {
  // The saved result keeps the markers of what the neutraliser removed, for the window; the model reads it plain.
  const result = plainValue(marked);
  const blocks = (Array.isArray(result.content) ? (result.content as Block[]) : []).filter((block) => !forPersonOnly(block));
  const converted = blocks.map((block, index) => ({ index, priority: priorityOf(block), content: convert(block) }));
  if (converted.length === 0 && result.structuredContent !== undefined) {
    converted.push({ index: 0, priority: 1, content: { type: 'text', text: JSON.stringify(result.structuredContent) } });
  }
  const fullText = textOf(converted.map((block) => block.content));
  const { kept, truncated, what } = fitBudget(converted, budgetChars);
  if (truncated) {
    const given = textOf(kept);
    const offset = fullText.startsWith(given) ? given.length : 0;
    const rest =
      callId === undefined
        ? 'the full result is in the conversation'
        : `the whole result is kept (${fullText.length} characters of text): read ${offset > 0 ? 'the rest' : 'it'} with ${READ_RESULT_TOOL_NAME} {"callId": "${callId}", "offset": ${offset}}`;
    kept.push({ type: 'text', text: `[result truncated by Atrium to fit the model's budget: ${what}; ${rest}]` });
  }
  return { content: kept, isError: result.isError === true, truncated, fullText };
}

function forPersonOnly(block: Block): boolean {
  const audience = block.annotations?.audience;
  return Array.isArray(audience) && audience.length > 0 && !audience.includes('assistant');
}

function priorityOf(block: Block): number {
  const priority = block.annotations?.priority;
  return typeof priority === 'number' && priority >= 0 && priority <= 1 ? priority : 0.5;
}

function convert(block: Block): ToolResultContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: String(block.text ?? '') };
    case 'image':
      return typeof block.data === 'string' && typeof block.mimeType === 'string'
        ? { type: 'image', mimeType: block.mimeType, data: block.data }
        : { type: 'text', text: '[an image without data]' };
    case 'audio':
      return { type: 'text', text: `[audio ${String(block.mimeType ?? '')} (${approximateBytes(block.data)} bytes), shown to the person]` };
    case 'resource_link':
      return { type: 'text', text: `[resource link: ${String(block.uri ?? '')}${block.name ? ` (${String(block.name)})` : ''}]` };
    case 'resource': {
      const resource = block.resource ?? {};
      // Bytes said to be text are read as it here, after the result was made plain: made plain the same way.
      const text = typeof resource.text === 'string' ? resource.text : plainValue(textOfBytes(resource.blob, resource.mimeType));
      return text !== undefined
        ? { type: 'text', text: `[resource ${String(resource.uri ?? '')}]\n${text}` }
        : { type: 'text', text: `[binary resource ${String(resource.uri ?? '')} (${String(resource.mimeType ?? 'unknown type')}), shown to the person]` };
    }
    default:
      return { type: 'text', text: `[${String(block.type)} content, shown to the person]` };
  }
}

/**
 * Keeps content in order while it fits. When it does not, blocks are taken from the lowest priority up:
 * a block no bigger than the excess is dropped; the first bigger one is cut by the excess (an image,
 * which cannot be cut, is dropped). An explicit marker says what happened.
 */
function fitBudget(blocks: { index: number; priority: number; content: ToolResultContent }[], budget: number): { kept: ToolResultContent[]; truncated: boolean; what: string } {
  const size = (c: ToolResultContent) => (c.type === 'text' ? c.text.length : c.data.length);
  let excess = blocks.reduce((sum, b) => sum + size(b.content), 0) - budget;
  if (excess <= 0) return { kept: blocks.map((b) => b.content), truncated: false, what: '' };
  const dropped = new Set<number>();
  const cut = new Map<number, ToolResultContent>();
  for (const block of [...blocks].sort((a, b) => a.priority - b.priority || b.index - a.index)) {
    if (excess <= 0) break;
    const blockSize = size(block.content);
    if (blockSize <= excess || block.content.type !== 'text') {
      dropped.add(block.index);
      excess -= blockSize;
    } else {
      cut.set(block.index, { type: 'text', text: block.content.text.slice(0, blockSize - excess) });
      excess = 0;
    }
  }
  const kept = blocks.filter((b) => !dropped.has(b.index)).map((b) => cut.get(b.index) ?? b.content);
  const what = [dropped.size ? `${dropped.size} lower-priority block(s) dropped` : '', cut.size ? 'one block cut short' : ''].filter(Boolean).join(', ');
  return { kept, truncated: true, what };
}

function approximateBytes(data: unknown): number {
  return typeof data === 'string' ? base64ByteCount(data) : 0;
}
