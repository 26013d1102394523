// The Skills extension's section of the contract: servers' skills listed (nothing of them read), one
// shown to the person verified, one picked to use in a conversation, the approvals given, and the skills
// a conversation is using. Registered with the other sections in shared/contract.ts.

import type { ParamsSchema } from '../../../../../shared/contract/schemaParts.ts';
import { conversationId, conversationOnly, newConversationId, serverAndUri, serverFilter, serverId } from '../../../../../shared/contract/schemaParts.ts';
import type { ServerSkillList, ShownSkill, SkillInUse } from './skillViews.ts';

const uri = { type: 'string', minLength: 1, maxLength: 65_536 } as const;

/** What each request of this section resolves with; its params are its schema's (`skillsRequests`). */
export interface SkillsResults {
  /** Every server's skills (one server's with `serverId`), listed again where the server's listing is out of date; no file is read. */
  listSkills: ServerSkillList[];
  /** A skill's SKILL.md read and verified (size, digest, frontmatter) for the person to inspect; it does not reach the model. */
  showSkill: ShownSkill;
  /** One listed file of a skill, read and verified, for the person to inspect: its text, or its size when it is not text. */
  showSkillFile: { uri: string; text?: string; size: number; mimeType?: string };
  /**
   * The person picks a skill (the composer's `/`): it is used as the model would use it — approved once for
   * exactly its files, read and verified — and sent as the person's message, marked as its server's text.
   */
  runSkill: { conversationId: string; stopReason: string };
  /** Forgets the approval of a skill: its next use asks again. */
  revokeSkillApproval: null;
  /** The skills a conversation is using: their SKILL.md is in its context, and their listed files can be read. */
  listSkillsInUse: SkillInUse[];
}

export interface SkillsEvents {
  /** One server's skills as listed now (after a listing, an approval, a revocation, the server going away). */
  skillsChanged: ServerSkillList;
  /** The skills a conversation is using, as they are now. */
  skillsInUseChanged: { conversationId: string; skills: SkillInUse[] };
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const skillsRequests = {
  listSkills: serverFilter,
  showSkill: serverAndUri,
  showSkillFile: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'uri', 'file'],
    properties: { serverId, uri, file: uri },
  },
  runSkill: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'uri'],
    properties: {
      conversationId,
      newConversationId,
      serverId,
      uri,
      provider: { type: 'string', minLength: 1, maxLength: 100 },
      model: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  revokeSkillApproval: serverAndUri,
  listSkillsInUse: conversationOnly,
} as const satisfies { readonly [K in keyof SkillsResults]: ParamsSchema };

/** A record rather than a list, so an event added to SkillsEvents but not here fails the type-check. */
export const skillsEvents: { readonly [K in keyof SkillsEvents]: true } = {
  skillsChanged: true,
  skillsInUseChanged: true,
};
