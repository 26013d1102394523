// Why a message of a conversation is replaced (kept for the person, never given to a model again): Retry
// replaces what answered the person's last message; an edit replaces that message itself and what
// answered it. The window and the exports say which.

interface MessageLike {
  id: string;
  role: 'user' | 'assistant';
  content: readonly { type: string }[];
  replacedAt?: number;
}

/** A message the person wrote (or a prompt wrote for them): a user message with more than tool results. */
export function isPersonsMessage(message: MessageLike): boolean {
  return message.role === 'user' && message.content.some((block) => block.type !== 'tool_result');
}

/** The messages an edit replaced: each message of the person's edited away, and what answered it. */
export function replacedByEdit(messages: readonly MessageLike[]): Set<string> {
  const edited = new Set<string>();
  let afterEdited = false;
  for (const message of messages) {
    if (isPersonsMessage(message)) afterEdited = message.replacedAt !== undefined;
    if (afterEdited && message.replacedAt !== undefined) edited.add(message.id);
  }
  return edited;
}
