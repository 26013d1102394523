// The trace's part of keeping the store a mirror of the host: while a server's Trace tab is open (and the
// link to the host is), the window watches that server's trace — its messages so far, then the host's
// `traceMessages` batches, applied once per animation frame — and renews the watch; leaving the tab ends
// it, so a server nobody looks at announces nothing.

import type { AtriumClientApi, TraceMessage } from '../../shared/contract.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import type { ExtensionBinding } from './extensionBinding.ts';
import type { AtriumState } from './AtriumState.ts';
import type { AtriumStore } from './useAtriumStore.ts';

interface Watching {
  serverId: string;
  /** Null while the host has not answered yet. */
  watchId: string | null;
  renewal: ReturnType<typeof setInterval> | undefined;
}

/** The server whose trace the window shows now, if any. */
function wantedTrace(state: AtriumState): string | null {
  return state.view === 'servers' && state.selectedServerTab === 'trace' && state.selectedServerId !== null && state.link === 'open' ? state.selectedServerId : null;
}

export function bindTraceStore(api: AtriumClientApi, store: AtriumStore): ExtensionBinding {
  const state = () => store.getState();
  let watching: Watching | null = null;
  let queued: TraceMessage[] = [];
  let queuedSkipped = 0;
  let frame: number | undefined;

  const stop = () => {
    const ended = watching;
    watching = null;
    queued = [];
    queuedSkipped = 0;
    if (!ended) return;
    clearInterval(ended.renewal);
    if (ended.watchId !== null) void api.unwatchTrace({ watchId: ended.watchId }).catch(() => undefined);
    state().clearTrace();
  };

  const start = (serverId: string) => {
    const mine: Watching = { serverId, watchId: null, renewal: undefined };
    watching = mine;
    state().openTrace(serverId);
    api.watchTrace({ serverId }).then(
      (watch) => {
        if (watching !== mine) {
          void api.unwatchTrace({ watchId: watch.watchId }).catch(() => undefined);
          return;
        }
        mine.watchId = watch.watchId;
        state().setTrace(serverId, watch.messages, watch.limits);
        mine.renewal = setInterval(() => {
          api.renewTraceWatch({ watchId: watch.watchId }).then(
            (alive) => {
              // The host ended it (it restarted, or the lease ran out while this window slept): watch again.
              if (!alive && watching === mine) restart();
            },
            () => undefined,
          );
        }, watch.renewWithinMs);
      },
      (error: unknown) => {
        if (watching === mine) state().failTrace(serverId, errorMessage(error));
      },
    );
  };

  const restart = () => {
    const serverId = watching?.serverId;
    stop();
    if (serverId !== undefined) start(serverId);
  };

  const sync = () => {
    const wanted = wantedTrace(state());
    if (wanted === (watching?.serverId ?? null)) return;
    stop();
    if (wanted !== null) start(wanted);
  };

  const flush = () => {
    frame = undefined;
    const messages = queued;
    const skipped = queuedSkipped;
    queued = [];
    queuedSkipped = 0;
    const serverId = watching?.serverId;
    if (serverId !== undefined && (messages.length > 0 || skipped > 0)) state().appendTrace(serverId, messages, skipped);
  };

  const offs = [
    api.on('traceMessages', ({ serverId, messages, skipped }) => {
      if (serverId !== watching?.serverId) return;
      queued.push(...messages);
      queuedSkipped += skipped ?? 0;
      frame ??= requestAnimationFrame(flush);
    }),
    store.subscribe((next, previous) => {
      if (next.view !== previous.view || next.selectedServerTab !== previous.selectedServerTab || next.selectedServerId !== previous.selectedServerId || next.link !== previous.link) sync();
    }),
  ];

  return {
    // After a reconnect the link's change has started a fresh watch already; this only makes sure of it.
    reload: async () => sync(),
    unbind: () => {
      offs.forEach((off) => off());
      if (frame !== undefined) cancelAnimationFrame(frame);
      stop();
    },
  };
}
