// Tasks' part of keeping the store a mirror of the host: the tasks, read on every (re)connect and then
// kept by `taskChanged`. A task that ended updates its call's card and adds what the model is told to its
// conversation, so the conversation shown is read again.

import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import type { AtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import type { ExtensionBinding } from '../../../../../renderer/store/extensionBinding.ts';

export function bindTasksStore(api: AtriumClientApi, store: AtriumStore): ExtensionBinding {
  const state = () => store.getState();
  const readConversation = async (conversationId: string) => {
    try {
      const detail = await api.getConversation({ conversationId });
      if (state().selectedConversationId === conversationId) state().setDetail(detail);
    } catch {
      // Read again with the next change.
    }
  };
  const off = api.on('taskChanged', (task) => {
    const before = state().tasks[task.key];
    state().applyTask(task);
    const justEnded = task.endedAt !== undefined && before?.endedAt === undefined;
    if (justEnded && task.conversationId !== undefined && state().selectedConversationId === task.conversationId) void readConversation(task.conversationId);
  });
  return {
    reload: async () => state().setTasks(await api.listTasks({})),
    unbind: off,
  };
}
