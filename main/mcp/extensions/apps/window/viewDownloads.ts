// MCP Apps ui/download-file: a view asks to save files. Nothing is saved unless the person says yes in
// the card, where each file is named as it will be saved (its last extension marked, since that is what
// decides what opening it does), with its type and size. A file is what the view sent (an embedded
// resource) or a resource of the view's own server (a resource link, read through the host); its name is
// the last part of its address, cleaned so it cannot name a folder or hide its extension behind spaces,
// and its type is kept only when it is a plain `type/subtype`.
import type { EmbeddedResource, ResourceLink } from '@modelcontextprotocol/client';
import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import { withoutMarks } from '../../../../../shared/serverText.ts';

/** The most a view may hand over to save at once. */
const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;
const MAX_NAME_CHARS = 100;
const UNKNOWN_TYPE = 'application/octet-stream';

export interface FileToSave {
  name: string;
  mimeType: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * A file name from a resource's address: its last segment, only letters, digits, spaces, `.`, `-` and
 * `_`; one space at most in a row and none before a dot, no leading or trailing dots, and cut to length
 * from its stem so the extension it is saved with is the one shown.
 */
export function fileNameOf(uri: string): string {
  let last = withoutMarks(uri).split(/[/\\]/).filter(Boolean).at(-1) ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // Kept as it is.
  }
  const clean = last
    .replace(/[^\p{L}\p{N} ._-]/gu, '_')
    .replace(/ +/g, ' ')
    .replace(/ +\./g, '.')
    .replace(/^[. ]+|[. ]+$/g, '');
  if (clean === '') return 'download';
  if (clean.length <= MAX_NAME_CHARS) return clean;
  const extension = extensionOf(clean);
  const kept = extension.length > 0 && extension.length <= 16 ? `.${extension}` : '';
  return clean.slice(0, MAX_NAME_CHARS - kept.length).trimEnd() + kept;
}

/** The name's last extension, without its dot; '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
}

/** A media type as `type/subtype` (parameters dropped, lower case); anything else is an unknown type. */
export function mediaTypeOf(raw: string | undefined): string {
  const bare = (raw ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/.test(bare) ? bare : UNKNOWN_TYPE;
}

/** Extensions whose file runs code when opened (or installs, or points elsewhere): the card warns of them. */
const RUNS_CODE = new Set(
  'exe msi msix appx bat cmd com scr pif cpl hta vbs vbe js jse wsf wsh ps1 psm1 msc reg lnk url jar app command sh bash zsh csh run bin appimage desktop pkg dmg deb rpm py pl rb docm xlsm pptm iso img dll so dylib'.split(' '),
);

/** Whether opening a file with this name would run code. */
export function runsCode(name: string): boolean {
  return RUNS_CODE.has(extensionOf(name).toLowerCase());
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
      files.push({ name: fileNameOf(resource.uri), mimeType: mediaTypeOf(resource.mimeType), bytes: bytesOf(resource) });
    } else {
      // Read through the host, its text has the neutraliser's marks: the file gets the text without them.
      const read = withoutMarks(await api.readResource({ serverId, uri: item.uri }));
      for (const content of read.contents) files.push({ name: fileNameOf(content.uri || item.uri), mimeType: mediaTypeOf(content.mimeType ?? item.mimeType), bytes: bytesOf(content) });
    }
  }
  const total = files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
  if (total > MAX_DOWNLOAD_BYTES) throw new Error(`the files come to ${Math.round(total / 1024 / 1024)} MB, more than the ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB a view may save at once`);
  return files;
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

/** "24 bytes", "1.5 KB", "3.0 MB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
