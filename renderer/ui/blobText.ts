// Bytes a server sent as base64 while saying they are text (MCP lets a server encode any resource so):
// the window reads them as the text they say they are, when they are that, and offers them to save either way.

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
