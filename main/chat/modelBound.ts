// Everything Atrium sends a model passes here, whatever path it took: a turn's conversation (tool results,
// prompts, attached resources), its tools, the system prompt with what views said, a server's sampling
// request. Server text is kept with the neutraliser's markers for the window; here it becomes what the
// model reads: no marker and no hidden character, prose with a note of what was removed. Text that did not
// come from a server (a pasted message, the model's own earlier reply) is held to the same rule.

import type { ChatContent, ChatMessage, ToolResultContent } from '../../shared/conversation.ts';
import { neutraliseProse, plainValue } from '../../shared/serverText.ts';
import type { LlmProvider, ModelRequest, ModelTool } from './llmTypes.ts';

/** The provider, with every request it streams made plain first. */
export function modelBound(provider: LlmProvider): LlmProvider {
  return {
    id: provider.id,
    kind: provider.kind,
    defersTools: provider.defersTools,
    listModels: () => provider.listModels(),
    stream: (request) => provider.stream(forModel(request)),
  };
}

/** The request as the model may read it; the same request when nothing in it needed changing. */
export function forModel(request: ModelRequest): ModelRequest {
  const system = request.system === undefined ? undefined : neutraliseProse(request.system);
  const messages = sameOrChanged(request.messages, plainMessage);
  const tools = sameOrChanged(request.tools, plainTool);
  if (system === request.system && messages === request.messages && tools === request.tools) return request;
  return { ...request, ...(system !== undefined ? { system } : {}), messages, tools };
}

function plainMessage(message: ChatMessage): ChatMessage {
  const content = sameOrChanged(message.content, plainContent);
  return content === message.content ? message : { ...message, content };
}

function plainContent(block: ChatContent): ChatContent {
  if (block.type === 'text') {
    const text = neutraliseProse(block.text);
    return text === block.text ? block : { ...block, text };
  }
  if (block.type === 'tool_result') {
    const content = sameOrChanged(block.content, plainResultPart);
    return content === block.content ? block : { ...block, content };
  }
  // The model's own calls go back as it made them; images carry no text.
  return block;
}

function plainResultPart(part: ToolResultContent): ToolResultContent {
  if (part.type !== 'text') return part;
  const text = neutraliseProse(part.text);
  return text === part.text ? part : { ...part, text };
}

function plainTool(tool: ModelTool): ModelTool {
  const description = tool.description === undefined ? undefined : neutraliseProse(tool.description);
  const inputSchema = plainValue(tool.inputSchema);
  if (description === tool.description && inputSchema === tool.inputSchema) return tool;
  return { ...tool, ...(description !== undefined ? { description } : {}), inputSchema };
}

function sameOrChanged<T>(items: readonly T[], change: (item: T) => T): T[] {
  let changed: T[] | undefined;
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as T;
    const next = change(item);
    if (next !== item && changed === undefined) changed = items.slice(0, index);
    changed?.push(next);
  }
  return changed ?? (items as T[]);
}
