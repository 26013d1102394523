// What servers offer besides tools (resources, templates, prompts), and the roots and workspaces Atrium
// gives them.

import type { ServerId } from './serverId.ts';

export interface ResourceSummary {
  serverId: ServerId;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplateSummary {
  serverId: ServerId;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface PromptArgumentSummary {
  name: string;
  description?: string;
  required?: boolean;
}

export interface PromptSummary {
  serverId: ServerId;
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgumentSummary[];
}

export interface RootEntry {
  uri: string;
  name?: string;
}

/** A workspace and its roots; the active one's roots are what servers see. */
export interface WorkspaceView {
  id: string;
  name: string;
  roots: RootEntry[];
  active: boolean;
  /** Stored roots of the active workspace whose folders no longer exist: left out until they return. */
  missingRoots?: string[];
}
