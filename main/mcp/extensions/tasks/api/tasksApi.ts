// Tasks' requests of the contract (tasksContract.ts), thin over the task tracker, which owns the tasks and
// announces their changes; the server's own list comes from its connection.

import type { AtriumApi } from '../../../../../shared/contract.ts';
import type { McpHub } from '../../../McpHub.ts';
import type { TasksResults } from '../contract/tasksContract.ts';
import type { TaskTracker } from '../host/taskTracker.ts';

export interface TasksApiDeps {
  tracker: TaskTracker;
  hub: Pick<McpHub, 'get'>;
}

export function createTasksApi({ tracker, hub }: TasksApiDeps): Pick<AtriumApi, keyof TasksResults> {
  return {
    listTasks: async () => tracker.list(),
    cancelTask: async ({ key }) => {
      await tracker.cancel(key);
      return null;
    },
    setTaskFollowUp: async ({ key, followUp }) => {
      tracker.setFollowUp(key, followUp);
      return null;
    },
    listServerTasks: async ({ serverId }) => hub.get(serverId).listTasks(),
  };
}
