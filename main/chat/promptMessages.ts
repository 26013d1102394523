// A server prompt's messages (prompts/get) as the person's message in a conversation: a slash command
// inserts what the prompt expands to. MCP prompt messages are user or assistant turns; the conversation
// takes one user message, so an assistant turn in the prompt (a worked example) is kept as labelled
// text. Embedded resources carry their text; links and audio are named, not fetched.

import type { ChatContent } from '../../shared/conversation.ts';

export class PromptShapeError extends Error {}

interface PromptBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

export function promptToContent(messages: readonly { role: string; content: unknown }[]): ChatContent[] {
  const content: ChatContent[] = [];
  for (const message of messages) {
    // The specification allows only user and assistant turns in a prompt; a "system" turn is refused, not passed on.
    if (message.role !== 'user' && message.role !== 'assistant') throw new PromptShapeError(`the prompt has a "${message.role}" message; MCP prompts may only hold user and assistant messages`);
    const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as PromptBlock[];
    for (const block of blocks) {
      const label = message.role === 'assistant' ? 'Assistant (example from the prompt): ' : '';
      if (block.type === 'text') content.push({ type: 'text', text: `${label}${block.text ?? ''}` });
      else if (block.type === 'image' && block.data && block.mimeType) content.push({ type: 'image', mimeType: block.mimeType, data: block.data });
      else if (block.type === 'resource' && block.resource) {
        const body = block.resource.text ?? `[binary ${block.resource.mimeType ?? 'content'}]`;
        content.push({ type: 'text', text: `${label}Resource ${block.resource.uri ?? ''}:\n${body}` });
      } else if (block.type === 'resource_link') content.push({ type: 'text', text: `${label}[resource link: ${block.uri ?? ''}]` });
      else content.push({ type: 'text', text: `${label}[${block.type} content]` });
    }
  }
  if (content.length === 0) throw new PromptShapeError('the prompt expanded to nothing');
  return content;
}
