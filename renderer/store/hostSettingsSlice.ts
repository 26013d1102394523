import type { HostInfo, ProviderSettingsView, ProviderView } from '../../shared/contract.ts';
import type { WorkspaceView } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

/**
 * A mirror of the host's settings and what it says of itself: the saved settings (`settingsChanged`),
 * the providers with their models (fetched again whenever the settings change), the workspaces
 * (`workspacesChanged`) and the front end's abilities. Null until first loaded.
 */
export interface HostSettingsSlice {
  settings: ProviderSettingsView | null;
  providers: ProviderView[] | null;
  /** Why the providers' models could not be listed at all (each provider's own failure is in its view). */
  providersError: string | null;
  workspaces: WorkspaceView[] | null;
  hostInfo: HostInfo | null;
  setSettings(settings: ProviderSettingsView): void;
  setProviders(providers: ProviderView[] | null, error?: string): void;
  setWorkspaces(workspaces: WorkspaceView[]): void;
  setHostInfo(hostInfo: HostInfo): void;
}

export const createHostSettingsSlice: SliceCreator<HostSettingsSlice> = (set) => ({
  settings: null,
  providers: null,
  providersError: null,
  workspaces: null,
  hostInfo: null,
  setSettings: (settings) => set({ settings }),
  setProviders: (providers, error) => set(providers ? { providers, providersError: null } : { providersError: error ?? null }),
  setWorkspaces: (workspaces) => set({ workspaces }),
  setHostInfo: (hostInfo) => set({ hostInfo }),
});
