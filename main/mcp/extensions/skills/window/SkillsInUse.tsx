import { useEffect } from 'react';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import type { SkillInUse } from '../contract/skillViews.ts';

const none: SkillInUse[] = [];

/** The skills the shown conversation uses, each with its server: their text is in the model's context as that server's. */
export function SkillsInUse({ conversationId }: { conversationId: string | null }) {
  const api = useAtriumApi();
  const skills = useAtriumStore((state) => (conversationId ? (state.skillsInUse[conversationId] ?? none) : none));
  const setSkillsInUse = useAtriumStore((state) => state.setSkillsInUse);
  useEffect(() => {
    if (!conversationId) return;
    api.listSkillsInUse({ conversationId }).then(
      (found) => setSkillsInUse(conversationId, found),
      () => undefined,
    );
  }, [api, conversationId, setSkillsInUse]);
  if (skills.length === 0) return null;
  return (
    <ul className="skills-in-use" aria-label="Skills in use">
      {skills.map((skill) => (
        <li key={`${skill.serverId} ${skill.uri}`} className="chip" title={`${skill.uri}: its text is in this conversation as ${skill.serverId}’s content`}>
          Skill <UntrustedText text={skill.name} /> <span className="muted">· from <UntrustedText text={skill.serverId} /></span>
        </li>
      ))}
    </ul>
  );
}
