// The one gate between a link in the window and the person's browser. The page asks with
// `window.open(url)` after the person confirmed the address; main checks it here and only then hands
// it to `shell.openExternal` (the OS's URL handler, never a command shell). Anything the page could use
// to run or read something locally is refused: file:, javascript:, data:, custom app schemes, and
// addresses with credentials in them.

export type ExternalUrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

const maxLength = 8192;

export function checkExternalUrl(raw: string): ExternalUrlVerdict {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'the address is empty' };
  if (raw.length > maxLength) return { ok: false, reason: `the address is longer than ${maxLength} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'it is not a valid address' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'the address carries a user name or password' };
  if (url.protocol === 'https:') return { ok: true, url: url.href };
  if (url.protocol === 'http:') {
    return isLoopback(url.hostname)
      ? { ok: true, url: url.href }
      : { ok: false, reason: 'plain http is opened only for this computer (localhost); use https' };
  }
  return { ok: false, reason: `Atrium does not open ${url.protocol.replace(/:$/, '')}: addresses` };
}

function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // The URL parser has already turned every IPv4 spelling (hex, octal, short forms) into a dotted quad.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
