// The person's browser, for a host with nobody at a window (the conformance client, integration tests):
// it loads the authorization page and follows the authorization server's redirects, as a browser would
// after the person approved, until the server sends it back to Atrium's loopback redirect. Like a
// browser it goes where the authorization server sends it, but only over http(s), and never to a
// link-local or cloud-metadata address; it never runs anything a page contains.

import type { FetchLike } from '@modelcontextprotocol/client';
import { assertServerUrl } from './urlPolicy.ts';

const MAX_HOPS = 10;

export function approvingBrowser(base: FetchLike = fetch): (url: string) => Promise<void> {
  return async (start) => {
    let url = assertServerUrl(start, 'loopback', 'open for sign-in');
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const response = await base(url, { redirect: 'manual' });
      await response.body?.cancel().catch(() => undefined);
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location === null) {
        if (!response.ok) throw new Error(`the authorization page ${url.origin}${url.pathname} answered HTTP ${response.status}`);
        return;
      }
      url = assertServerUrl(new URL(location, url).href, 'loopback', 'follow a redirect to');
    }
    throw new Error(`the authorization page redirected more than ${MAX_HOPS} times`);
  };
}
