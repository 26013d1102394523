// Which of a conversation's messages the chat shows, and how: the turn a window joined midway, the person's
// last message (the one an edit replaces), why Atrium did not do what the model asked of its own tools,
// and which task results the model has answered.

import type { StoredMessage } from '../../../shared/conversation.ts';
import type { LiveTurn } from '../../store/chatSlice.ts';
import { typedText } from './messageText.ts';
import { isPersonsMessage } from '../../../shared/replacedMessages.ts';

/**
 * The turn as this window shows it. A step it saw begin is what it heard; a step it joined midway is the
 * saved reply (as last loaded) up to where the deltas it heard begin, then those deltas.
 */
export function joinedTurn(live: LiveTurn | undefined, messages: readonly StoredMessage[]): LiveTurn | undefined {
  if (!live || live.textFrom === 0) return live;
  const last = messages.at(-1);
  const messageId = live.messageId ?? (last?.role === 'assistant' && last.status === 'streaming' ? last.id : undefined);
  const saved = messageId === undefined ? undefined : messages.findLast((message) => message.id === messageId);
  if (!saved) return live;
  // A reply's text blocks are its deltas in order, cut where an image or a tool call came.
  const savedText = typedText(saved, '');
  const savedImages = saved.content.flatMap((block) => (block.type === 'image' ? [{ mimeType: block.mimeType, data: block.data }] : []));
  const text = live.textFrom === undefined ? savedText : savedText.slice(0, live.textFrom) + live.text;
  return { ...live, messageId: saved.id, text, images: [...savedImages, ...live.images] };
}

/** A message the chat shows: every reply, and the person's messages (more than tool results). */
export function isShown(message: StoredMessage): boolean {
  return message.role === 'assistant' || isPersonsMessage(message);
}

/** The person's last message standing: the one an edit replaces. */
export function lastPersonMessageId(messages: readonly StoredMessage[]): string | undefined {
  return messages.findLast((message) => message.role === 'user' && message.replacedAt === undefined)?.id;
}

/** The answers of Atrium's own tools that say they were not done (a refused skill or file), by their call's id. */
export function refusalsOf(messages: readonly StoredMessage[]): ReadonlyMap<string, string> {
  const refusals = new Map<string, string>();
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type !== 'tool_result' || block.isError !== true) continue;
      const text = block.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
      if (text !== '') refusals.set(block.toolUseId, text);
    }
  }
  return refusals;
}

/** The task results the model has answered since they came in: a reply of the model's follows them. */
export function answeredTaskResults(messages: readonly StoredMessage[]): ReadonlySet<string> {
  const answered = new Set<string>();
  let replyAfter = false;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'assistant') replyAfter = true;
    else if (message?.origin?.kind === 'task' && replyAfter) answered.add(message.id);
  }
  return answered;
}
