// What the window's front end is and brings beyond the contract: the desktop app injects the system's
// folder picker; the browser mode and the CLI have none, and say so in a sentence.

import type { AtriumApi, HostInfo } from '../../shared/contract.ts';

type HostInfoRequests = Pick<AtriumApi, 'getHostInfo' | 'pickFolders'>;

export interface FrontEnd {
  kind: HostInfo['frontEnd'];
  /** Shows the system's folder picker; resolves with the chosen folders' paths (empty when cancelled). */
  pickFolders?(): Promise<string[]>;
  /** The view sandbox's relay page (see HostInfo.viewSandbox). */
  viewSandbox?: string;
}

export const headlessFrontEnd: FrontEnd = { kind: 'headless' };

export class FolderPickerUnavailableError extends Error {
  readonly code = 'failed';
}

export function createHostInfoApi(frontEnd: FrontEnd): HostInfoRequests {
  return {
    getHostInfo: async () => ({
      frontEnd: frontEnd.kind,
      canPickFolders: frontEnd.pickFolders !== undefined,
      ...(frontEnd.viewSandbox ? { viewSandbox: frontEnd.viewSandbox } : {}),
    }),
    pickFolders: async () => {
      if (!frontEnd.pickFolders) {
        const where = frontEnd.kind === 'browser' ? 'in the browser' : 'here';
        throw new FolderPickerUnavailableError(`Choosing a folder is not available ${where}: type the folder’s full path instead.`);
      }
      return frontEnd.pickFolders();
    },
  };
}
