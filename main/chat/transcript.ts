// The saved messages of a conversation as a model can take them. A history may hold what a model API
// refuses: an empty reply cut off by a crash, a tool call whose result was never saved, two user
// messages in a row after an interrupted turn. Those are repaired here, on the way to the model only.

import type { ChatContent, ChatMessage } from '../../shared/conversation.ts';

export function transcriptForModel(messages: readonly ChatMessage[]): ChatMessage[] {
  const answered = new Set<string>();
  for (const message of messages) for (const c of message.content) if (c.type === 'tool_result') answered.add(c.toolUseId);
  const asked = new Set<string>();
  for (const message of messages) for (const c of message.content) if (c.type === 'tool_use' && answered.has(c.id)) asked.add(c.id);

  const out: ChatMessage[] = [];
  for (const message of messages) {
    const content = message.content.filter((c: ChatContent) => {
      if (c.type === 'tool_use') return asked.has(c.id);
      if (c.type === 'tool_result') return asked.has(c.toolUseId);
      if (c.type === 'text') return c.text.length > 0;
      return true;
    });
    if (content.length === 0) continue;
    const previous = out[out.length - 1];
    if (previous && previous.role === message.role) previous.content.push(...content);
    else out.push({ role: message.role, content: [...content] });
  }
  // A conversation starts with the person.
  while (out[0]?.role === 'assistant') out.shift();
  return out;
}
