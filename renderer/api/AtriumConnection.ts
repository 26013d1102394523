import type { AtriumClientApi } from '../../shared/contract.ts';

/**
 * `open` → requests work; `reconnecting` → the link dropped, pending requests were rejected and events
 * may have been missed, so state is reloaded on the next `open`; `no-token` → the page was opened
 * without the URL's `#token=…`; `bad-token` → the host is there but refuses this page's token (a link
 * from an earlier start), so nothing is retried.
 */
export type LinkStatus = 'connecting' | 'open' | 'reconnecting' | 'no-token' | 'bad-token';

/** The API plus the state of the link that carries it. */
export interface AtriumConnection {
  readonly api: AtriumClientApi;
  status(): LinkStatus;
  onStatus(listener: (status: LinkStatus) => void): () => void;
}
