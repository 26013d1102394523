import type { ServerId, ServerSnapshot } from '../../shared/domain.ts';
import type { AtriumState, SliceCreator } from './AtriumState.ts';

/** The tabs of a server's detail; 'sign-in' is offered for remote servers only. */
export type ServerTab = 'log' | 'trace' | 'tools' | 'skills' | 'permissions' | 'about' | 'sign-in';

export interface SelectionSlice {
  selectedServerId: ServerId | null;
  selectedServerTab: ServerTab;
  /** Another server's detail opens on its log; the same one keeps its tab. */
  selectServer(serverId: ServerId | null): void;
  selectServerTab(tab: ServerTab): void;
  /** Shows a server's Sign-in tab in the Servers view, from anywhere (a tool call that needs a sign-in). */
  showServerSignIn(serverId: ServerId): void;
  /** Shows a server's Trace tab, narrowed to one tool call's messages when a call is named (its card's "Show messages"). */
  showServerTrace(serverId: ServerId, callId?: string): void;
  /** Shows one of a server's tabs in the Servers view, from anywhere (the chat's line about a withheld tool). */
  showServerTab(serverId: ServerId, tab: ServerTab): void;
  /** Servers waiting for launch approval whose start dialog the person put off ("Keep it off") in this window. */
  launchReviewsPutOff: ServerId[];
  putOffLaunchReview(serverId: ServerId): void;
  /** Shows a server's start dialog again (its card's "Review and start…"). */
  reviewLaunch(serverId: ServerId): void;
}

export const createSelectionSlice: SliceCreator<SelectionSlice> = (set) => ({
  selectedServerId: null,
  selectedServerTab: 'log',
  selectServer: (selectedServerId) =>
    set((state) => (state.selectedServerId === selectedServerId ? {} : { selectedServerId, selectedServerTab: 'log' })),
  selectServerTab: (selectedServerTab) => set({ selectedServerTab }),
  showServerSignIn: (selectedServerId) => set({ view: 'servers', viewChosen: true, selectedServerId, selectedServerTab: 'sign-in' }),
  showServerTrace: (selectedServerId, callId) =>
    set({ view: 'servers', viewChosen: true, selectedServerId, selectedServerTab: 'trace', traceCall: callId === undefined ? null : { serverId: selectedServerId, callId } }),
  showServerTab: (selectedServerId, selectedServerTab) => set({ view: 'servers', viewChosen: true, selectedServerId, selectedServerTab }),
  launchReviewsPutOff: [],
  putOffLaunchReview: (serverId) => set((state) => ({ launchReviewsPutOff: [...state.launchReviewsPutOff.filter((id) => id !== serverId), serverId] })),
  reviewLaunch: (serverId) => set((state) => ({ launchReviewsPutOff: state.launchReviewsPutOff.filter((id) => id !== serverId) })),
});

/** The servers whose start dialog waits for the person (their launch is new or changed), less those put off in this window. */
export function launchReviewsWaiting(state: Pick<AtriumState, 'servers' | 'launchReviewsPutOff'>): ServerSnapshot[] {
  return state.servers.filter((server) => server.status.kind === 'needs-approval' && !state.launchReviewsPutOff.includes(server.id));
}
