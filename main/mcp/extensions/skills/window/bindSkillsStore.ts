// Skills' part of keeping the store a mirror of the host: every server's skills, read on every
// (re)connect and then kept by `skillsChanged`; the skills a conversation uses, kept by `skillsInUseChanged`
// (each conversation's are read when it is shown: SkillsInUse.tsx).

import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import type { AtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import type { ExtensionBinding } from '../../../../../renderer/store/extensionBinding.ts';

export function bindSkillsStore(api: AtriumClientApi, store: AtriumStore): ExtensionBinding {
  const offs = [
    api.on('skillsChanged', (list) => store.getState().setServerSkills(list)),
    api.on('skillsInUseChanged', ({ conversationId, skills }) => store.getState().setSkillsInUse(conversationId, skills)),
  ];
  return {
    reload: async () => {
      try {
        store.getState().setAllSkills(await api.listSkills({}));
      } catch {
        // Listed again by the next server that changes, or the next reconnect.
      }
    },
    unbind: () => offs.forEach((off) => off()),
  };
}
