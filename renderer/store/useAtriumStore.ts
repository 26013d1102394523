import { create } from 'zustand';
import type { AtriumState } from './AtriumState.ts';
import { createCatalogSlice } from './catalogSlice.ts';
import { createChatSlice } from './chatSlice.ts';
import { createNextMessageSlice } from './nextMessageSlice.ts';
import { createHostSettingsSlice } from './hostSettingsSlice.ts';
import { createConnectionSlice } from './connectionSlice.ts';
import { createDataFilesSlice } from './dataFilesSlice.ts';
import { createLogsSlice } from './logsSlice.ts';
import { createSelectionSlice } from './selectionSlice.ts';
import { createPendingSlice } from './pendingSlice.ts';
import { createServersSlice } from './serversSlice.ts';
import { createViewSlice } from './viewSlice.ts';
import { createTraceSlice } from './traceSlice.ts';
import { createAppsSlice } from '../../main/mcp/extensions/apps/window/appsSlice.ts';
import { createTasksSlice } from '../../main/mcp/extensions/tasks/window/tasksSlice.ts';
import { createSkillsSlice } from '../../main/mcp/extensions/skills/window/skillsSlice.ts';
import { createSandboxSlice } from '../../main/mcp/extensions/sandbox/window/sandboxSlice.ts';

/** The renderer's one store: a mirror of the host's state plus what this window selected. */
export const createAtriumStore = () =>
  create<AtriumState>()((...args) => ({
    ...createServersSlice(...args),
    ...createLogsSlice(...args),
    ...createSelectionSlice(...args),
    ...createConnectionSlice(...args),
    ...createChatSlice(...args),
    ...createNextMessageSlice(...args),
    ...createPendingSlice(...args),
    ...createViewSlice(...args),
    ...createDataFilesSlice(...args),
    ...createCatalogSlice(...args),
    ...createHostSettingsSlice(...args),
    ...createTraceSlice(...args),
    // The extensions' slices, one line each.
    ...createAppsSlice(...args),
    ...createTasksSlice(...args),
    ...createSkillsSlice(...args),
    ...createSandboxSlice(...args),
  }));

export type AtriumStore = ReturnType<typeof createAtriumStore>;

export const useAtriumStore = createAtriumStore();
