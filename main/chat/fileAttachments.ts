// Files the person attached to a message: an image goes to the model as an image, a text file as text
// under its name; anything else is refused with the reason, before anything is saved or sent. The rule
// is shared/attachableFiles.ts, which the window applies first, when a file is attached.

import type { ChatContent } from '../../shared/conversation.ts';
import { attachedText, attachmentKind, attachmentRefusal } from '../../shared/attachableFiles.ts';
import { ATTACHED_FILE_LABEL, attachedLabel } from '../../shared/attachedContent.ts';

export class AttachmentError extends Error {
  readonly code = 'invalid_params';
}

export function fileToContent(file: { name: string; mimeType: string; data: string }): ChatContent[] {
  const bytes = Buffer.from(file.data, 'base64');
  const refusal = attachmentRefusal(file.name, file.mimeType, bytes);
  if (refusal !== undefined) throw new AttachmentError(refusal);
  if (attachmentKind(file.name, file.mimeType) === 'image') return [{ type: 'text', text: `Attached image ${file.name}:` }, { type: 'image', mimeType: file.mimeType, data: file.data }];
  return [{ type: 'text', text: `${attachedLabel(ATTACHED_FILE_LABEL, file.name)}:\n${attachedText(bytes) ?? ''}` }];
}
