// Resources the person attached to a message, read when it is sent and carried as content the model
// can take: text as a labelled text block, images as images, other binary content named, not inlined.

import type { ChatContent } from '../../shared/conversation.ts';
import { sliceMarked } from '../../shared/serverText.ts';
import { base64ByteCount, textOfBytes } from '../../shared/blobText.ts';
import { ATTACHED_RESOURCE_LABEL, attachedLabel } from '../../shared/attachedContent.ts';

/** The cap per attached resource's text; a larger one is cut with a marker (the person sees it whole in the resources view). */
const MAX_TEXT_CHARS = 200_000;

interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export function resourceToContent(uri: string, contents: readonly ResourceContents[]): ChatContent[] {
  const blocks: ChatContent[] = [];
  for (const item of contents) {
    const label = attachedLabel(ATTACHED_RESOURCE_LABEL, `${item.uri || uri}${item.mimeType ? ` (${item.mimeType})` : ''}`);
    const text = typeof item.text === 'string' ? item.text : textOfBytes(item.blob, item.mimeType);
    if (text !== undefined) {
      // The text keeps the neutraliser's marks (the window shows them); the model reads it plain (modelBound.ts).
      const cut = text.length > MAX_TEXT_CHARS;
      blocks.push({ type: 'text', text: `${label}:\n${cut ? `${sliceMarked(text, MAX_TEXT_CHARS)}\n[… cut at ${MAX_TEXT_CHARS} characters of ${text.length}]` : text}` });
    } else if (typeof item.blob === 'string' && item.mimeType?.startsWith('image/')) {
      blocks.push({ type: 'text', text: `${label}:` }, { type: 'image', mimeType: item.mimeType, data: item.blob });
    } else {
      blocks.push({ type: 'text', text: `${label}: [binary, ${base64ByteCount(item.blob ?? '')} bytes, not included]` });
    }
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: `Resource ${uri}: [empty]` });
  return blocks;
}
