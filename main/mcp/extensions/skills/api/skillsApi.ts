// The Skills extension's requests of the contract (skillsContract.ts), thin over its host part: servers'
// skills listed, one shown to the person verified, one the person picks sent as their message through
// the one loading path (asked once, verified, marked as its server's text), approvals taken back, and
// the skills a conversation uses. The registry and the loader announce their own changes.

import type { AtriumApi } from '../../../../../shared/contract.ts';
import type { ChatService } from '../../../../chat/chatService.ts';
import { NotFoundError, sendTurn } from '../../../../api/conversationApi.ts';
import { skillForModel } from '../chat/skillForModel.ts';
import type { SkillsResults } from '../contract/skillsContract.ts';
import type { SkillsHost } from '../host/skillsHost.ts';
import { SkillRefusal } from '../host/skillLoader.ts';

export function createSkillsApi({ registry, loader, approvals }: Pick<SkillsHost, 'registry' | 'loader' | 'approvals'>, chat: ChatService): Pick<AtriumApi, keyof SkillsResults> {
  return {
    listSkills: async ({ serverId }) => registry.list(serverId),
    showSkill: async ({ serverId, uri }) => loader.show(serverId, uri),
    showSkillFile: async ({ serverId, uri, file }) => loader.showFile(serverId, uri, file),
    runSkill: async ({ conversationId, newConversationId, serverId, uri, provider, model }) => {
      // Asked and verified before anything is saved: a skill that cannot be used sends nothing.
      const loaded = await loader.use({ serverId, uri, by: 'person', ...(conversationId ? { conversationId } : {}) }).catch((error: unknown) => {
        if (error instanceof SkillRefusal && error.denied) throw new SkillRefusal(`you chose not to use the skill; nothing was sent`, { denied: true });
        throw error;
      });
      const { name } = loaded.summary;
      return sendTurn(chat, {
        content: [
          { type: 'text', text: `Use the skill “${name}” of ${serverId}.` },
          { type: 'text', text: skillForModel(loaded.summary, loaded.text) },
        ],
        origin: { kind: 'skill', serverId, name, uri },
        // The conversation holds the skill's entry before the model's first step, so it can read the skill's files.
        onStarted: (id) => loader.hold(id, loaded),
        ...(conversationId ? { conversationId } : {}),
        ...(newConversationId ? { newConversationId } : {}),
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
      });
    },
    revokeSkillApproval: async ({ serverId, uri }) => {
      if (!approvals.forget(serverId, uri)) throw new NotFoundError(`you have not approved the skill ${uri} of ${serverId}`);
      registry.approvalsChanged(serverId);
      return null;
    },
    listSkillsInUse: async ({ conversationId }) => loader.inUse(conversationId),
  };
}
