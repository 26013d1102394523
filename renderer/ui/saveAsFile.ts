/**
 * Offers `contents` to the person as a file named `name`: the browser's download, or the desktop app's
 * save dialog. For what the host made on request (a trace, a conversation), not for a server's bytes to
 * open in place.
 */
export function saveAsFile(contents: string, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([contents], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.click();
  // Revoked once the download surely has it: revoking at once can cancel it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
