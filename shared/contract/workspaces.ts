// The contract's section for workspaces and their roots, and what this front end is and can do.
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { RootEntry, WorkspaceView } from '../domain.ts';
import type { ParamsSchema } from './schemaParts.ts';
import { noParams, workspaceId, workspaceName, rootList } from './schemaParts.ts';

export interface HostInfo {
  /** The desktop app, the browser mode, or a front end without a window (the CLI). */
  frontEnd: 'electron' | 'browser' | 'headless';
  /** The system's folder picker is there (`pickFolders`). */
  canPickFolders: boolean;
  /**
   * Where MCP Apps views are shown: the view sandbox's relay page, on an origin of its own. Absent when
   * this front end has none (the CLI): a view is then named, not shown.
   */
  viewSandbox?: string;
}

/** What each request of this section resolves with; its params are its schema's (`workspacesRequests`). */
export interface WorkspacesResults {
  /** The roots servers see now: the active workspace's (and any given for this run only). */
  listRoots: RootEntry[];
  /** Replaces the active workspace's roots. */
  setRoots: RootEntry[];
  /** Which front end the window runs in and what it can do beyond the contract (the native folder picker). */
  getHostInfo: HostInfo;
  /**
   * Opens the system's folder picker (the desktop app only) and resolves with the folders the person
   * chose, as paths; empty when they cancelled. The browser has none: it fails, and a path is typed.
   */
  pickFolders: string[];
  listWorkspaces: WorkspaceView[];
  createWorkspace: WorkspaceView;
  setWorkspaceRoots: WorkspaceView;
  /** Makes the workspace active: its roots go to every server that asked for roots. */
  activateWorkspace: WorkspaceView;
  renameWorkspace: WorkspaceView;
  deleteWorkspace: null;
}

export interface WorkspacesEvents {
  rootsChanged: RootEntry[];
  workspacesChanged: WorkspaceView[];
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const workspacesRequests = {
  listRoots: noParams,
  setRoots: { type: 'object', additionalProperties: false, required: ['roots'], properties: { roots: rootList } },
  getHostInfo: noParams,
  pickFolders: noParams,
  listWorkspaces: noParams,
  createWorkspace: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: workspaceName, roots: rootList } },
  setWorkspaceRoots: { type: 'object', additionalProperties: false, required: ['workspaceId', 'roots'], properties: { workspaceId, roots: rootList } },
  activateWorkspace: { type: 'object', additionalProperties: false, required: ['workspaceId'], properties: { workspaceId } },
  renameWorkspace: { type: 'object', additionalProperties: false, required: ['workspaceId', 'name'], properties: { workspaceId, name: workspaceName } },
  deleteWorkspace: { type: 'object', additionalProperties: false, required: ['workspaceId'], properties: { workspaceId } },
} as const satisfies { readonly [K in keyof WorkspacesResults]: ParamsSchema };

/** A record rather than a list, so an event added to WorkspacesEvents but not here fails the type-check. */
export const workspacesEvents: { readonly [K in keyof WorkspacesEvents]: true } = {
  rootsChanged: true,
  workspacesChanged: true,
};
