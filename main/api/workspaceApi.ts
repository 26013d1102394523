// The workspace half of the typed contract: roots per workspace. Workspaces announce their own changes
// (workspacesChanged); the roots servers see are announced by rootsChanged (from the RootsStore).

import type { AtriumApi } from '../../shared/contract.ts';
import type { RootsStore } from '../host/rootsStore.ts';
import type { Workspaces } from '../host/workspaces.ts';

type WorkspaceRequests = Pick<
  AtriumApi,
  'listRoots' | 'setRoots' | 'listWorkspaces' | 'createWorkspace' | 'setWorkspaceRoots' | 'activateWorkspace' | 'renameWorkspace' | 'deleteWorkspace'
>;

export function createWorkspaceApi(workspaces: Workspaces, roots: RootsStore): WorkspaceRequests {
  return {
    listRoots: async () => roots.list(),
    setRoots: async ({ roots: entries }) => {
      await workspaces.setRoots(workspaces.active().id, entries);
      return roots.list();
    },
    // Looked at: a folder deleted since is said, and no longer given to servers.
    listWorkspaces: async () => {
      await workspaces.recheck();
      return workspaces.list();
    },
    createWorkspace: async ({ name, roots: entries }) => workspaces.create(name, entries ?? []),
    setWorkspaceRoots: async ({ workspaceId, roots: entries }) => workspaces.setRoots(workspaceId, entries),
    activateWorkspace: async ({ workspaceId }) => workspaces.activate(workspaceId),
    renameWorkspace: async ({ workspaceId, name }) => workspaces.rename(workspaceId, name),
    deleteWorkspace: async ({ workspaceId }) => {
      workspaces.delete(workspaceId);
      return null;
    },
  };
}
