// MCP Apps' slice of the window's one store: what the person chose for servers' views (a mirror of the
// host's view trust, announced by `viewTrustChanged`) and the one view floating picture-in-picture.

import type { ViewTrust } from '../contract/viewSandbox.ts';
import type { SliceCreator } from '../../../../../renderer/store/AtriumState.ts';

export interface FloatingView {
  callId: string;
  messageId: string;
}

export interface AppsSlice {
  /** The servers whose views show without asking, and the browser permissions allowed to their views. */
  viewTrust: ViewTrust[];
  setViewTrust(viewTrust: ViewTrust[]): void;
  /**
   * The one view shown picture-in-picture (floating over the chat while the conversation scrolls), by its
   * call and the message that made it, so the list keeps that message's row mounted.
   */
  floatingView: FloatingView | null;
  /** Floats a view (another floating view goes back into its card), or none. */
  setFloatingView(view: FloatingView | null): void;
}

export const createAppsSlice: SliceCreator<AppsSlice> = (set) => ({
  viewTrust: [],
  setViewTrust: (viewTrust) => set({ viewTrust }),
  floatingView: null,
  setFloatingView: (floatingView) => set({ floatingView }),
});
