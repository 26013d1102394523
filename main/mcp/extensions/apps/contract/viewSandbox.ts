// MCP Apps views run in a frame on an origin of their own (the view sandbox), never Atrium's. This is
// the part both sides share: what a view may reach, read defensively from the server's word
// (`_meta.ui.csp` and `_meta.ui.permissions` on its `ui://` resource), and the Content-Security-Policy
// built from it. The policy is default-deny and never wider than declared: only https origins (and
// http on loopback, for servers in development) are kept; anything else is dropped, with a note saying so.

/** The MCP Apps extension's name, as clients declare it in their capabilities. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP Apps view's page. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** The network origins a view declares, each list cleaned (see `cleanViewCsp`). */
export interface ViewCsp {
  /** fetch, XHR, WebSocket (`connect-src`). */
  connectDomains: string[];
  /** scripts, styles, images, fonts, media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains: string[];
  /** frames the view nests (`frame-src`). */
  frameDomains: string[];
  /** the document's base URI (`base-uri`). */
  baseUriDomains: string[];
}

/** The browser permissions a view may ask for; each is denied unless the person allowed it for the server. */
export const viewPermissions = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export type ViewPermission = (typeof viewPermissions)[number];

export const emptyViewCsp: ViewCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

/** A view declaring more than this many origins in one list is cut to it (the rest are dropped, said). */
const MAX_ORIGINS_PER_LIST = 32;
const cspLists = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/**
 * An origin a view may name: `https://host[:port]` (the host may start with `*.` for its subdomains), or
 * `http://` / `ws(s)://` on loopback. No path, query, quote, space, `;` or `,`: a source must be one token,
 * or it could add directives of its own.
 */
const httpsOrigin = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i;
const loopbackOrigin = /^(http|ws):\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;
/** The page that may host the sandbox: the browser mode's loopback origin, or the desktop app's scheme. */
const hostPageOrigin = /^(http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(:\d{1,5})?|atrium:\/\/[a-z0-9-]+)$/i;

export function isAllowedViewOrigin(value: string): boolean {
  const origin = value.endsWith('/') ? value.slice(0, -1) : value;
  return origin.length <= 253 && (httpsOrigin.test(origin) || loopbackOrigin.test(origin));
}

/** A view's declared origins, cleaned, with a sentence for each thing dropped. */
export function cleanViewCsp(raw: unknown): { csp: ViewCsp; dropped: string[] } {
  const record = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const csp: ViewCsp = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  const dropped: string[] = [];
  for (const list of cspLists) {
    const declared = record[list];
    if (declared === undefined) continue;
    if (!Array.isArray(declared)) {
      dropped.push(`${list} is not a list`);
      continue;
    }
    for (const entry of declared) {
      const origin = typeof entry === 'string' ? (entry.endsWith('/') ? entry.slice(0, -1) : entry) : undefined;
      if (origin === undefined || !isAllowedViewOrigin(origin)) {
        dropped.push(`${list}: ${typeof entry === 'string' ? JSON.stringify(entry.slice(0, 80)) : 'a value that is not text'} is not an https origin`);
      } else if (csp[list].length >= MAX_ORIGINS_PER_LIST) {
        dropped.push(`${list}: more than ${MAX_ORIGINS_PER_LIST} origins`);
        break;
      } else if (!csp[list].includes(origin.toLowerCase())) {
        csp[list].push(origin.toLowerCase());
      }
    }
  }
  return { csp, dropped };
}

/** Each permission as the person reads it, after “your”. */
export const viewPermissionNames: Record<ViewPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'location',
  clipboardWrite: 'clipboard (writing only)',
};

/**
 * The frame's `allow` attribute (Permissions Policy) for the permissions allowed: a feature not named is
 * blocked in the frame whatever the browser would grant. Built from Atrium's own list, never a server's text.
 */
export function viewAllowAttribute(allowed: readonly ViewPermission[]): string {
  const features: Record<ViewPermission, string> = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
  return viewPermissions.filter((name) => allowed.includes(name)).map((name) => `${features[name]} *`).join('; ');
}

/** The permissions a view asks for (`_meta.ui.permissions`), of the ones Atrium knows. */
export function requestedViewPermissions(raw: unknown): ViewPermission[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  return viewPermissions.filter((name) => (raw as Record<string, unknown>)[name] !== undefined);
}

/** Every origin a view may reach, for the person to read before it is first shown. */
export function declaredOrigins(csp: ViewCsp): string[] {
  return [...new Set(cspLists.flatMap((list) => csp[list]))];
}

/**
 * The policy a view's document runs under. What it guards is where the view may reach, not what code it
 * runs: a view is the server's code, so its own scripts may run however it packs them — inline (views are
 * single files), and from blob: and data: URLs it makes itself (pdf.js starts its worker from a data: URL)
 * — while every network origin is only one the view declared. `'self'` is the sandbox origin, which
 * serves nothing but the relay; `frame-ancestors` is the page that hosts it.
 */
export function viewContentPolicy(csp: ViewCsp, frameAncestor: string): string {
  for (const origin of declaredOrigins(csp)) {
    if (!isAllowedViewOrigin(origin)) throw new Error(`"${origin}" is not an origin a view's policy may name.`);
  }
  if (!hostPageOrigin.test(frameAncestor)) throw new Error(`"${frameAncestor}" is not Atrium's page.`);
  const sources = (list: string[], base: string) => [base, ...list].filter(Boolean).join(' ');
  const resources = csp.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${sources(resources, "'self' 'unsafe-inline' blob: data:")}`,
    `style-src ${sources(resources, "'self' 'unsafe-inline'")}`,
    `img-src ${sources(resources, "'self' data: blob:")}`,
    `font-src ${sources(resources, "'self' data:")}`,
    `media-src ${sources(resources, "'self' data: blob:")}`,
    // A view's workers come from itself (blob: and data: URLs it makes), never from elsewhere.
    "worker-src 'self' blob: data:",
    `connect-src ${csp.connectDomains.length > 0 ? csp.connectDomains.join(' ') : "'none'"}`,
    `frame-src ${csp.frameDomains.length > 0 ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp.baseUriDomains.length > 0 ? csp.baseUriDomains.join(' ') : "'none'"}`,
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${frameAncestor}`,
  ].join('; ');
}

/**
 * The Connection-Allowlist the view's document runs under (a header Chromium knows): the network layer's
 * list of where it may connect at all, so what a Content-Security-Policy does not cover is closed too —
 * WebRTC (blocked whenever the header is set), preconnect and DNS prefetch, a frame navigating itself. It
 * names the sandbox itself (which serves only the relay) and the origins the view declared for fetching,
 * loading and framing; the CSP still says which of them each kind of request may use.
 */
export function viewConnectionAllowlist(csp: ViewCsp): string {
  const origins = [...new Set([...csp.connectDomains, ...csp.resourceDomains, ...csp.frameDomains])];
  for (const origin of origins) {
    if (!isAllowedViewOrigin(origin)) throw new Error(`"${origin}" is not an origin a view's allowlist may name.`);
  }
  const patterns = origins.map((origin) => `"${structuredString(originPattern(origin))}"`);
  return `(${['response-origin', ...patterns].join(' ')})`;
}

/** A URLPattern for every address on a declared origin; WebSocket schemes match as their HTTP ones. */
function originPattern(origin: string): string {
  const match = /^(\w+):\/\/(.+?)(:\d{1,5})?\/?$/.exec(origin);
  if (!match) throw new Error(`"${origin}" is not an origin.`);
  const [, scheme = '', host = '', port = ''] = match;
  const http = scheme.toLowerCase() === 'wss' ? 'https' : scheme.toLowerCase() === 'ws' ? 'http' : scheme.toLowerCase();
  // In a pattern `:`, `[` and `]` have meanings of their own (an IPv6 loopback has all three); `*.` stays a wildcard.
  return `${http}://${host.replace(/[:[\]]/g, (ch) => `\\${ch}`)}${port}/*`;
}

/** A Structured Field string's content: a backslash and a quote are escaped. */
function structuredString(text: string): string {
  return text.replace(/[\\"]/g, (ch) => `\\${ch}`);
}

/** The relay page's query: which page hosts it and what the view declared. */
export function viewSandboxQuery(hostOrigin: string, csp: ViewCsp): string {
  const params = new URLSearchParams({ host: hostOrigin, csp: JSON.stringify(csp) });
  return params.toString();
}

/** The relay page's query read back; undefined when anything in it is not what Atrium would write. */
export function readViewSandboxQuery(search: URLSearchParams): { hostOrigin: string; csp: ViewCsp } | undefined {
  const hostOrigin = search.get('host') ?? '';
  if (!hostPageOrigin.test(hostOrigin)) return undefined;
  let declared: unknown;
  try {
    declared = JSON.parse(search.get('csp') ?? '{}');
  } catch {
    return undefined;
  }
  const { csp, dropped } = cleanViewCsp(declared);
  return dropped.length > 0 ? undefined : { hostOrigin, csp };
}

/** What a view told the model (`ui/update-model-context`), as kept: its latest, cleaned and capped. */
export interface ViewContextEntry {
  /** The tool call whose view it is. */
  callId: string;
  serverId: string;
  tool: string;
  text: string;
  updatedAt: number;
}

/** The most a view may tell the model; more is cut, and the cut said. */
export const MAX_VIEW_CONTEXT_CHARS = 4_000;

/**
 * What the person chose for one server's views: to see them without being asked each time, and which
 * browser permissions its views may use. A server appears once it has either.
 */
export interface ViewTrust {
  serverId: string;
  /** When they chose to see its views without being asked; absent when they did not. */
  showsSince?: number;
  /** The permissions they allowed its views, each with when. */
  permissions: ViewPermissionGrant[];
}

export interface ViewPermissionGrant {
  permission: ViewPermission;
  since: number;
}

/** A tool's view as the host read it, for the window to show in the view sandbox (`openToolView`). */
export interface ToolViewDocument {
  serverId: string;
  tool: string;
  /** The `ui://` resource the tool names. */
  resourceUri: string;
  /** The view's HTML, as its server sent it: it only ever runs in the sandbox. */
  html: string;
  /** The origins it may reach, as declared and cleaned. */
  csp: ViewCsp;
  /** What was declared but not kept (not an https origin, too many), to say beside the view. */
  dropped: string[];
  /** Browser permissions it asked for; each denied unless the person allowed it for the server. */
  permissions: ViewPermission[];
  /** The view asks for a border around it (`_meta.ui.prefersBorder`); false when it says so. */
  prefersBorder: boolean;
}
