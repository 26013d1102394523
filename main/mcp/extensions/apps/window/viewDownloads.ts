// MCP Apps ui/download-file: a view asks to save files. Nothing is saved unless the person says yes to
// the browser's own confirmation, which names each file, its type and size and the view that asks. A file
// is what the view sent (an embedded resource) or a resource of the view's own server (a resource link,
// read through the host); its name is the last part of its address, cleaned so it cannot name a folder.
import type { EmbeddedResource, ResourceLink } from '@modelcontextprotocol/client';
import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import { withoutMarks } from '../../../../../shared/serverText.ts';
import { shownText } from '../../../../../shared/visibleText.ts';

/** The most a view may hand over to save at once. */
const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;

export interface FileToSave {
  name: string;
  mimeType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** A file name from a resource's address: its last segment, only letters, digits, spaces, `.`, `-` and `_`. */
export function fileNameOf(uri: string): string {
  let last = withoutMarks(uri).split(/[/\\]/).filter(Boolean).at(-1) ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // Kept as it is.
  }
  const clean = last.replace(/[^\p{L}\p{N} ._-]/gu, '_').replace(/^[.\s]+/, '').slice(0, 100).trim();
  return clean === '' ? 'download' : clean;
}

function bytesOf(content: { text?: string; blob?: string }): Uint8Array<ArrayBuffer> {
  if (typeof content.text === 'string') return new TextEncoder().encode(content.text);
  const binary = atob(content.blob ?? '');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The files a view asks to save, read (a link from the view's own server only). */
export async function filesToSave(api: AtriumClientApi, serverId: string, contents: (EmbeddedResource | ResourceLink)[]): Promise<FileToSave[]> {
  const files: FileToSave[] = [];
  for (const item of contents) {
    if (item.type === 'resource') {
      const { resource } = item;
      files.push({ name: fileNameOf(resource.uri), mimeType: resource.mimeType ?? 'application/octet-stream', bytes: bytesOf(resource) });
    } else {
      // Read through the host, its text has the neutraliser's marks: the file gets the text without them.
      const read = withoutMarks(await api.readResource({ serverId, uri: item.uri }));
      for (const content of read.contents) files.push({ name: fileNameOf(content.uri || item.uri), mimeType: content.mimeType ?? item.mimeType ?? 'application/octet-stream', bytes: bytesOf(content) });
    }
  }
  const total = files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
  if (total > MAX_DOWNLOAD_BYTES) throw new Error(`the files come to ${Math.round(total / 1024 / 1024)} MB, more than the ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB a view may save at once`);
  return files;
}

/** The confirmation's words: who asks, and each file as it will be saved. */
export function downloadQuestion(askedBy: string, files: readonly FileToSave[]): string {
  const list = files.map((file) => `• ${shownText(file.name)} (${shownText(file.mimeType)}, ${sizeText(file.bytes.byteLength)})`).join('\n');
  return `${shownText(askedBy)} asks to save ${files.length === 1 ? 'a file' : `${files.length} files`} to your computer:\n\n${list}\n\nSave ${files.length === 1 ? 'it' : 'them'}?`;
}

/** Hands each file to the browser's downloads (the desktop app's save dialog). */
export function saveFiles(files: readonly FileToSave[]): void {
  for (const file of files) {
    const url = URL.createObjectURL(new Blob([file.bytes], { type: file.mimeType }));
    const link = document.createElement('a');
    link.href = url;
    link.download = file.name;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
    // The download has its own copy once it started.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
