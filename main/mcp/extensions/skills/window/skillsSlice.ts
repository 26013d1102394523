// Skills' slice of the window's one store: each server's skills as the host last listed them (a mirror of
// `skillsChanged`), and the skills each conversation uses (`skillsInUseChanged`).

import type { ServerSkillList, SkillInUse } from '../contract/skillViews.ts';
import type { SliceCreator } from '../../../../../renderer/store/AtriumState.ts';

export interface SkillsSlice {
  /** By server: its skills, or that it offers none. */
  skills: Record<string, ServerSkillList>;
  setAllSkills(lists: ServerSkillList[]): void;
  setServerSkills(list: ServerSkillList): void;
  /** By conversation: the skills it uses. */
  skillsInUse: Record<string, SkillInUse[]>;
  setSkillsInUse(conversationId: string, skills: SkillInUse[]): void;
}

export const createSkillsSlice: SliceCreator<SkillsSlice> = (set) => ({
  skills: {},
  setAllSkills: (lists) => set({ skills: Object.fromEntries(lists.map((list) => [list.serverId, list])) }),
  setServerSkills: (list) =>
    set((state) => {
      const skills = { ...state.skills };
      // A server gone (or offering none) is dropped, so the window never offers a skill no one can load.
      if (list.offered || list.skills.length > 0 || list.error) skills[list.serverId] = list;
      else delete skills[list.serverId];
      return { skills };
    }),
  skillsInUse: {},
  setSkillsInUse: (conversationId, skills) => set((state) => ({ skillsInUse: { ...state.skillsInUse, [conversationId]: skills } })),
});
