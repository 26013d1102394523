// What of an MCP tool result goes back to the model. Content annotations route it (audience ["user"] is
// for the person only), every content type becomes something a model can read, and a result larger than
// the budget is cut with an explicit marker, dropping low-priority content first; the full result stays
// in the history for the person.

import type { ToolResultContent } from '../../shared/conversation.ts';

export interface ModelToolResult {
  content: ToolResultContent[];
  isError: boolean;
  /** True when content was dropped or cut to fit the budget. */
  truncated: boolean;
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

export const DEFAULT_RESULT_BUDGET_CHARS = 100_000;

export function toolResultForModel(result: Record<string, unknown>, budgetChars = DEFAULT_RESULT_BUDGET_CHARS): ModelToolResult {
  const blocks = (Array.isArray(result.content) ? (result.content as Block[]) : []).filter((block) => !forPersonOnly(block));
  const converted = blocks.map((block, index) => ({ index, priority: priorityOf(block), content: convert(block) }));
  if (converted.length === 0 && result.structuredContent !== undefined) {
    converted.push({ index: 0, priority: 1, content: { type: 'text', text: JSON.stringify(result.structuredContent) } });
  }
  const { kept, truncated } = fitBudget(converted, budgetChars);
  return { content: kept, isError: result.isError === true, truncated };
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
      return typeof resource.text === 'string'
        ? { type: 'text', text: `[resource ${String(resource.uri ?? '')}]\n${resource.text}` }
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
function fitBudget(blocks: { index: number; priority: number; content: ToolResultContent }[], budget: number): { kept: ToolResultContent[]; truncated: boolean } {
  const size = (c: ToolResultContent) => (c.type === 'text' ? c.text.length : c.data.length);
  let excess = blocks.reduce((sum, b) => sum + size(b.content), 0) - budget;
  if (excess <= 0) return { kept: blocks.map((b) => b.content), truncated: false };
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
  kept.push({ type: 'text', text: `[result truncated by Atrium to fit the model's budget: ${what}; the full result is in the conversation]` });
  return { kept, truncated: true };
}

function approximateBytes(data: unknown): number {
  return typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0;
}
