// Files the person attached to a message: an image goes to the model as an image, a text file as text
// under its name; anything else is refused with the reason, before anything is saved or sent.

import type { ChatContent } from '../../shared/conversation.ts';

export class AttachmentError extends Error {
  readonly code = 'invalid_params';
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|typescript|x-yaml|yaml|toml|x-sh|sql|csv))/;
const TEXT_NAMES = /\.(txt|md|markdown|json|ya?ml|toml|csv|tsv|xml|html?|css|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cpp|hpp|cs|swift|sh|sql|ini|cfg|conf|log)$/i;

export function fileToContent(file: { name: string; mimeType: string; data: string }): ChatContent[] {
  const bytes = Buffer.from(file.data, 'base64');
  if (file.mimeType.startsWith('image/')) return [{ type: 'text', text: `Attached image ${file.name}:` }, { type: 'image', mimeType: file.mimeType, data: file.data }];
  if (TEXT_TYPES.test(file.mimeType) || TEXT_NAMES.test(file.name)) {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: false });
    return [{ type: 'text', text: `Attached file ${file.name}:\n${text}` }];
  }
  throw new AttachmentError(`${file.name} (${file.mimeType || 'unknown type'}) cannot be sent to a model: attach images or text files`);
}
