// The saved messages of a conversation as a model can take them. A history may hold what a model API
// refuses: an empty reply cut off by a crash, a tool call whose result was never saved, two user
// messages in a row after an interrupted turn. Those are repaired here, on the way to the model only.
// A turn repairs the conversation once, as it reads it, and then only what each of its steps adds.

import type { ChatContent, ChatMessage } from '../../shared/conversation.ts';

export function transcriptForModel(messages: readonly ChatMessage[]): ChatMessage[] {
  const out = repaired(messages);
  // A conversation starts with the person.
  while (out[0]?.role === 'assistant') out.shift();
  return out;
}

/**
 * Continues a repaired transcript with what a step of the agent loop adds — the model's reply and the
 * results of the calls it made, which answer only those calls — repairing only that: the same as
 * transcriptForModel over the whole, at the cost of what was added. The messages already there are never
 * changed (a provider keeps what it made of each): one joined with the first added, as two messages of
 * the same role are, is replaced by a new message.
 */
export function continueTranscript(transcript: ChatMessage[], added: readonly ChatMessage[]): void {
  for (const message of repaired(added)) {
    const last = transcript.at(-1);
    if (last?.role === message.role) transcript[transcript.length - 1] = { role: last.role, content: [...last.content, ...message.content] };
    // A conversation starts with the person.
    else if (last !== undefined || message.role === 'user') transcript.push(message);
  }
}

/** Calls without a result (and results without a call) and empty texts left out; same-role neighbours joined. */
function repaired(messages: readonly ChatMessage[]): ChatMessage[] {
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
  return out;
}
