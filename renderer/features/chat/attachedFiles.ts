import { ATTACHED_FILE_MAX_BYTES, ATTACHED_FILES_MAX, ATTACHED_TOTAL_MAX_BYTES, attachmentRefusal } from '../../../shared/attachableFiles.ts';

import type { AttachedFile } from '../../store/nextMessageSlice.ts';

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The files chosen, added to those attached (one of the same name replaced), and a sentence for each
 * refused: one no model can read, one too large, one past the number or the total the message may carry.
 * Checked here, when attached, so a message is never written around a file its send would refuse.
 */
export async function attachFiles(chosen: readonly File[], attached: readonly AttachedFile[]): Promise<{ files: AttachedFile[]; refused: string[] }> {
  let files = [...attached];
  const refused: string[] = [];
  for (const file of chosen) {
    const others = files.filter((f) => f.name !== file.name);
    if (file.size > ATTACHED_FILE_MAX_BYTES) {
      refused.push(`${file.name} is larger than ${megabytes(ATTACHED_FILE_MAX_BYTES)}.`);
      continue;
    }
    if (others.length >= ATTACHED_FILES_MAX) {
      refused.push(`${file.name} was not attached: a message carries at most ${ATTACHED_FILES_MAX} files.`);
      continue;
    }
    if (others.reduce((sum, f) => sum + f.size, file.size) > ATTACHED_TOTAL_MAX_BYTES) {
      refused.push(`${file.name} was not attached: the files of one message come to at most ${megabytes(ATTACHED_TOTAL_MAX_BYTES)} together.`);
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const mimeType = file.type || 'application/octet-stream';
    const refusal = attachmentRefusal(file.name, mimeType, bytes);
    if (refusal !== undefined) {
      refused.push(`${refusal}.`);
      continue;
    }
    files = [...others, { name: file.name, mimeType, data: base64Of(bytes), size: file.size }];
  }
  return { files, refused };
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
