// Bytes a server sent as base64 while saying they are text (MCP lets a server encode any resource so):
// read as the text they say they are, when they are that, by the window (which offers them to save
// either way) and for the model alike. The text is the server's, as untrusted as any it sends.

import { markHidden } from './serverText.ts';

/** Text as MIME types name it: text/*, and JSON and XML under application/. */
export function saysText(mimeType: string | undefined): boolean {
  const type = mimeType ?? '';
  return type.startsWith('text/') || /^application\/([\w.+-]*\+)?(json|xml)$/.test(type);
}

/** The base64 bytes as UTF-8 text, when the server says they are text and they are; undefined otherwise. */
export function blobAsText(blob: string, mimeType: string | undefined): string | undefined {
  if (!saysText(mimeType)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(blob), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * For the host: the bytes as text, with their hiding characters marked as every string a server sends is
 * when it arrives (the transport's neutraliser saw only base64); undefined when they are not text.
 */
export function textOfBytes(blob: unknown, mimeType: unknown): string | undefined {
  if (typeof blob !== 'string') return undefined;
  const text = blobAsText(blob, typeof mimeType === 'string' ? mimeType : undefined);
  return text === undefined ? undefined : markHidden(text);
}

/** How many bytes a base64 string holds, its padding counted out. */
export function base64ByteCount(blob: string): number {
  const padding = blob.endsWith('==') ? 2 : blob.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((blob.length * 3) / 4) - padding);
}
