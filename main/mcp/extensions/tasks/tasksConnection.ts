// Tasks' part in every connection. The client declares both revisions' side of it:
// - the tasks extension (io.modelcontextprotocol/tasks, 2026-07-28): a server may then answer a call with a
//   task, which Atrium follows (sessionTasks.ts);
// - the 2025-11-25 `tasks` capability as a receiver: a server may send its sampling and elicitation
//   requests as tasks (taskReceiver.ts), and poll them while the person answers.
// Every front end follows tasks: the CLI waits for a task's result, the window shows its card.

import type { ConnectionExtension } from '../../connection/connectionServices.ts';
import { TASKS_EXTENSION } from './contract/tasksContract.ts';

/** What the client receives as tasks on 2025-11-25, as the tasks library's receiver answers them. */
export const RECEIVER_CAPABILITIES = {
  list: {},
  cancel: {},
  requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
};

export const tasksConnection: ConnectionExtension = {
  id: TASKS_EXTENSION,
  declare: () => ({}),
  capabilities: () => ({ tasks: RECEIVER_CAPABILITIES }),
};
