import type { StateCreator } from 'zustand';
import type { CatalogSlice } from './catalogSlice.ts';
import type { ChatSlice } from './chatSlice.ts';
import type { NextMessageSlice } from './nextMessageSlice.ts';
import type { HostSettingsSlice } from './hostSettingsSlice.ts';
import type { ConnectionSlice } from './connectionSlice.ts';
import type { DataFilesSlice } from './dataFilesSlice.ts';
import type { LogsSlice } from './logsSlice.ts';
import type { SelectionSlice } from './selectionSlice.ts';
import type { PendingSlice } from './pendingSlice.ts';
import type { ServersSlice } from './serversSlice.ts';
import type { ViewSlice } from './viewSlice.ts';
import type { TraceSlice } from './traceSlice.ts';
import type { AppsSlice } from '../../main/mcp/extensions/apps/window/appsSlice.ts';
import type { TasksSlice } from '../../main/mcp/extensions/tasks/window/tasksSlice.ts';
import type { SkillsSlice } from '../../main/mcp/extensions/skills/window/skillsSlice.ts';
import type { SandboxSlice } from '../../main/mcp/extensions/sandbox/window/sandboxSlice.ts';

export type AtriumState = ServersSlice & LogsSlice & SelectionSlice & ConnectionSlice & ChatSlice & NextMessageSlice & PendingSlice & ViewSlice & DataFilesSlice & CatalogSlice & HostSettingsSlice & TraceSlice &
  // The extensions' slices, one each.
  AppsSlice &
  TasksSlice &
  SkillsSlice &
  SandboxSlice;

/** A slice sees (and may update) the whole state, so cross-slice cleanups stay in one `set`. */
export type SliceCreator<Slice> = StateCreator<AtriumState, [], [], Slice>;
