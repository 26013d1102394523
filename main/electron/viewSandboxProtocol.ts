// The desktop app's view sandbox: MCP Apps views are shown from `atrium-view://sandbox/`, a scheme of
// their own and so an origin that is not the window's (`atrium://app`). It answers what the browser
// mode's sandbox listener answers (main/api/viewSandboxPages.ts): the relay page, with the view's own
// Content-Security-Policy, framed only by Atrium's page, and its script; nothing else.
import type { CustomScheme } from 'electron';
import { answerViewSandbox, viewSandboxPagePath } from '../mcp/extensions/apps/api/viewSandboxPages.ts';

export const viewScheme = 'atrium-view';
export const viewHost = 'sandbox';
/** The relay page the window frames, one per view (its query says which page and what the view declared). */
export const viewSandboxUrl = `${viewScheme}://${viewHost}${viewSandboxPagePath}`;

/**
 * standard: a real origin of its own (atrium-view://sandbox), so the relay's own script is 'self'; secure:
 * a secure context, as views expect. It never bypasses the CSP, has no fetch API from the page (the page
 * only frames it), and no service workers.
 */
export const viewSchemePrivileges: CustomScheme = {
  scheme: viewScheme,
  privileges: { standard: true, secure: true, supportFetchAPI: false, codeCache: false, bypassCSP: false, allowServiceWorkers: false },
};

/** Answers one atrium-view:// request. */
export function serveViewSandboxRequest(request: Request): Response {
  const url = new URL(request.url);
  const answer =
    url.protocol === `${viewScheme}:` && url.host === viewHost && url.username === '' && url.password === ''
      ? answerViewSandbox(url, request.method)
      : { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Not Found' };
  return new Response(request.method === 'HEAD' ? null : answer.body, { status: answer.status, headers: answer.headers });
}
