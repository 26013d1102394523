import type { StoredMessage } from '../../../shared/conversation.ts';

/** What the person (or the model) wrote in a message, its text blocks joined. */
export function typedText(message: StoredMessage, separator = '\n'): string {
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(separator);
}
