// Which files a person may attach to a message, and how each goes to the model: an image the providers
// take (PNG, JPEG, GIF, WebP) as an image, a text file as its text under its name. One rule for the window,
// which refuses a file when it is attached (not when the message is sent), and the host, which decides.

/** The image types every provider Atrium speaks to takes. */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|typescript|x-yaml|yaml|toml|x-sh|sql|csv)$|image\/svg\+xml$)/;
const TEXT_NAMES = /\.(txt|md|markdown|json|ya?ml|toml|csv|tsv|xml|svg|html?|css|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cpp|hpp|cs|swift|sh|sql|ini|cfg|conf|log)$/i;

/** At most this many files to one message, this large each and together (the window's link and the providers' requests bound it). */
export const ATTACHED_FILES_MAX = 10;
export const ATTACHED_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHED_TOTAL_MAX_BYTES = 30 * 1024 * 1024;

/** How a file goes to the model, by its type or, for text, its name; undefined when it cannot. */
export function attachmentKind(name: string, mimeType: string): 'image' | 'text' | undefined {
  if (TEXT_TYPES.test(mimeType) || TEXT_NAMES.test(name)) return 'text';
  if (MODEL_IMAGE_TYPES.has(mimeType)) return 'image';
  return undefined;
}

/**
 * A text file's text: UTF-8 (a byte-order mark dropped), else Windows-1252, as older editors on Windows
 * save text; undefined when the bytes are no text at all (a NUL byte, as in any binary file).
 */
export function attachedText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (bytes.includes(0)) return undefined;
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Why a file cannot go to the model, in a sentence that names it; undefined when it can. */
export function attachmentRefusal(name: string, mimeType: string, bytes: Uint8Array): string | undefined {
  const kind = attachmentKind(name, mimeType);
  if (kind === undefined) {
    const what = mimeType.startsWith('image/') ? 'an image of a kind models do not take' : 'neither an image nor text';
    return `${name} is ${what}: attach PNG, JPEG, GIF or WebP images, or text files`;
  }
  if (kind === 'text' && attachedText(bytes) === undefined) return `${name} is not text (it holds binary data): attach images or text files`;
  return undefined;
}
