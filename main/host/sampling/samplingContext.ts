// The context a sampling request may ask for (includeContext), drawn from the conversation whose tool
// call the server is serving, and only ever with the person's explicit consent:
//   thisServer — that server's own tool calls and results in the conversation;
//   allServers — the conversation's messages and every tool result in it.
// Bounded, newest kept, so a long conversation cannot blow the sampled model's context. Each piece is
// plain, as the model reads it, with its own note of what the neutraliser removed.

import type { ChatContent } from '../../../shared/conversation.ts';
import { neutraliseProse, plainValue } from '../../../shared/serverText.ts';
import type { HistoryStore } from '../../store/historyStore.ts';

export type ContextScope = 'thisServer' | 'allServers';

const MAX_CONTEXT_CHARS = 20_000;
const MAX_RESULT_CHARS = 2_000;

export function conversationContext(history: HistoryStore, conversationId: string, serverId: string, scope: ContextScope): string {
  const lines: string[] = [];
  if (scope === 'allServers') {
    for (const message of history.loadMessages(conversationId)) {
      const text = textOf(message.content);
      if (text) lines.push(`${message.role}: ${text}`);
    }
  }
  for (const call of history.toolCalls.list(conversationId)) {
    if (scope === 'thisServer' && call.serverId !== serverId) continue;
    if (call.result === undefined) continue;
    lines.push(`tool ${call.serverId}/${call.tool}(${JSON.stringify(call.arguments)}) → ${resultText(call.result).slice(0, MAX_RESULT_CHARS)}`);
  }
  let total = 0;
  const kept: string[] = [];
  for (const line of lines.reverse()) {
    if (total + line.length > MAX_CONTEXT_CHARS) break;
    kept.unshift(line);
    total += line.length;
  }
  return kept.join('\n');
}

function textOf(content: readonly ChatContent[]): string {
  return content
    .map((block) => (block.type === 'text' ? neutraliseProse(block.text) : ''))
    .filter(Boolean)
    .join('\n');
}

function resultText(saved: unknown): string {
  const result = plainValue(saved);
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return JSON.stringify(result);
  return content.map((block: { type?: string; text?: string }) => (block.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block.type)}]`)).join('\n');
}
