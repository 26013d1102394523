// The one Content-Security-Policy (and its companion headers) for the renderer, whichever front end
// serves it: the browser bridge over loopback HTTP and Electron's atrium:// protocol. The page shows
// text from MCP servers and LLMs, so it may run only the app's own scripts and styles, never fetch a
// remote image, and reach nothing but what its front end needs (the bridge's WebSocket, or nothing).

export interface PagePolicy {
  /**
   * Where the page may connect (fetch, WebSocket): exact origins such as `ws://127.0.0.1:5123`. Empty
   * means nowhere (Electron's page talks to main over IPC, which needs no network).
   */
  connect: readonly string[];
  /** Which origins the page may frame: the view sandbox's (MCP Apps views), or none. */
  frames?: readonly string[];
}

/** A source must be one token: whitespace, `;` or `,` would let it add directives of its own. */
const sourceToken = /^[a-z][a-z0-9+.-]*:\/\/[^\s;,'"]+$/i;

export function contentSecurityPolicy({ connect, frames = [] }: PagePolicy): string {
  for (const source of [...connect, ...frames]) {
    if (!sourceToken.test(source)) throw new Error(`"${source}" is not a source a Content-Security-Policy can name.`);
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // data: for the small images the build inlines and for images that tools return; never a remote one.
    "img-src 'self' data:",
    'media-src data:',
    `connect-src ${connect.length > 0 ? connect.join(' ') : "'none'"}`,
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(policy: PagePolicy): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(policy),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
