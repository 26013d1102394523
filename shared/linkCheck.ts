// Where a browser-mode page asks the host whether its token is this run's, after its connection was
// refused: it sends only the token's SHA-256 (base64url) in this header and hears 204 (yes) or 403 (no).
export const linkCheckPath = '/link-check';
export const linkCheckHeader = 'atrium-token-digest';
