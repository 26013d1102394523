// The workspace half of the typed contract: roots per workspace. Every change is announced with
// workspacesChanged; the roots servers see are announced by rootsChanged (from the RootsStore).

import type { AtriumApi } from '../../shared/contract.ts';
import type { RootsStore } from '../host/rootsStore.ts';
import type { Workspaces } from '../host/workspaces.ts';
import type { EventBus } from './eventBus.ts';

type WorkspaceRequests = Pick<
  AtriumApi,
  'listRoots' | 'setRoots' | 'listWorkspaces' | 'createWorkspace' | 'setWorkspaceRoots' | 'activateWorkspace' | 'renameWorkspace' | 'deleteWorkspace'
>;

export function createWorkspaceApi(workspaces: Workspaces, roots: RootsStore, events: EventBus): WorkspaceRequests {
  const announce = <T>(value: T): T => {
    events.emit('workspacesChanged', workspaces.list());
    return value;
  };
  return {
    listRoots: async () => roots.list(),
    setRoots: async ({ roots: entries }) => {
      announce(await workspaces.setRoots(workspaces.active().id, entries));
      return roots.list();
    },
    listWorkspaces: async () => workspaces.list(),
    createWorkspace: async ({ name, roots: entries }) => announce(await workspaces.create(name, entries ?? [])),
    setWorkspaceRoots: async ({ workspaceId, roots: entries }) => announce(await workspaces.setRoots(workspaceId, entries)),
    activateWorkspace: async ({ workspaceId }) => announce(await workspaces.activate(workspaceId)),
    renameWorkspace: async ({ workspaceId, name }) => announce(workspaces.rename(workspaceId, name)),
    deleteWorkspace: async ({ workspaceId }) => {
      workspaces.delete(workspaceId);
      return announce(null);
    },
  };
}
