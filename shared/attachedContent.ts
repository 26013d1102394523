// What an attached resource or file becomes in the person's message (main/chat/resourceAttachments.ts,
// main/chat/fileAttachments.ts): a text block that opens with a line naming it. The model reads it whole;
// the window folds it under that line, so a 3 MB file attached does not bury the conversation.

export const ATTACHED_FILE_LABEL = 'Attached file';
export const ATTACHED_RESOURCE_LABEL = 'Resource';

/** The block's first line: "Attached file notes.txt", "Resource file:///… (text/plain)". */
export function attachedLabel(kind: typeof ATTACHED_FILE_LABEL | typeof ATTACHED_RESOURCE_LABEL, name: string): string {
  return `${kind} ${name}`;
}

/** An attached resource's or file's text block as its name line and its contents; undefined for the person's own words. */
export function attachedPart(text: string): { label: string; body: string } | undefined {
  if (!text.startsWith(`${ATTACHED_FILE_LABEL} `) && !text.startsWith(`${ATTACHED_RESOURCE_LABEL} `)) return undefined;
  const end = text.indexOf(':\n');
  return end < 0 ? undefined : { label: text.slice(0, end), body: text.slice(end + 2) };
}
