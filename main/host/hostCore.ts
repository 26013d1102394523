// Placeholder signature, filled in by the lead engineer in this same change (see main/mcp/).
import type { AtriumApi } from '../../shared/contract.ts';
import type { EventBus } from '../api/eventBus.ts';

export interface HostCoreOptions {
  /** Atrium's data folder (ATRIUM_HOME, else the OS app-data folder). */
  home: string;
  /** A servers file to use instead of the stored one. */
  configPath?: string;
  /** Folders exposed to servers as roots. */
  roots?: string[];
}

export interface HostCore {
  readonly api: AtriumApi;
  readonly events: EventBus;
  /** Stops every server (no child process left behind) and ends remote sessions. */
  shutdown(): Promise<void>;
}
