// Skills in a turn: the two tools Atrium gives the model (use a skill, read one of its files), what a tool
// search also finds (the servers' skills, ranked as tools are), and each call carried out by the skill
// loader, its answer put in words for the model. A skill's text reaches the model marked as its server's.

import type { ChatContent } from '../../../../../shared/conversation.ts';
import type { HostToolCall, HostTools } from '../../../../chat/turnTools.ts';
import { PendingWithdrawnError } from '../../../../host/pendingRequests.ts';
import { folderForModel, foundSkills, readSkillFileTool, skillFileForModel, skillForModel, useSkillTool } from '../chat/skillForModel.ts';
import { READ_SKILL_FILE_TOOL, USE_SKILL_TOOL } from '../contract/skillViews.ts';
import type { SkillLoader } from './skillLoader.ts';
import { SkillRefusal } from './skillLoader.ts';
import type { SkillRegistry } from './skillRegistry.ts';

/** How long a turn waits for servers that just became ready to list their skills. */
const LISTING_WAIT_MS = 3_000;

export function skillHostTools(registry: SkillRegistry, loader: SkillLoader): HostTools {
  return {
    definitions: async (conversationId, { searching }) => {
      // A server that just became ready is still being listed: its skills are part of this turn.
      await registry.listed(LISTING_WAIT_MS);
      const offered = registry.offered();
      if (offered.length === 0 && loader.inUse(conversationId).length === 0) return [];
      return [useSkillTool(offered, searching), readSkillFileTool];
    },
    found: (query, limit) => foundSkills(registry.search(query, limit)),
    run: (call) => {
      if (call.name === USE_SKILL_TOOL) return answer(call, () => useSkill(loader, call));
      if (call.name === READ_SKILL_FILE_TOOL) return answer(call, () => readFile(loader, call));
      return undefined;
    },
  };
}

async function useSkill(loader: SkillLoader, call: HostToolCall): Promise<string> {
  const serverId = text(call.input, 'server');
  const uri = text(call.input, 'uri');
  const loaded = await loader.use({ serverId, uri, by: 'model', conversationId: call.conversationId, signal: call.signal });
  loader.hold(call.conversationId, loaded);
  const files = loaded.summary.files === 'dynamic' ? 0 : loaded.summary.files.length;
  call.notice(`using the skill “${loaded.summary.name}” of ${serverId}: its SKILL.md matched what the server listed (${files} file${files === 1 ? '' : 's'} in all)`);
  return skillForModel(loaded.summary, loaded.text);
}

async function readFile(loader: SkillLoader, call: HostToolCall): Promise<string> {
  const onServer = typeof call.input['on_server'] === 'string' && call.input['on_server'] !== '' ? call.input['on_server'] : undefined;
  const read = await loader.readFile({
    conversationId: call.conversationId,
    serverId: text(call.input, 'server'),
    skillUri: text(call.input, 'skill'),
    file: text(call.input, 'file'),
    ...(onServer !== undefined ? { onServer } : {}),
    signal: call.signal,
  });
  if (read.kind === 'folder') return folderForModel(read.skill, read.folder, read.paths);
  return skillFileForModel(read.serverId, read.skill.name, read.uri, read, read.fromSkill);
}

/** The call's answer for the model: what it read, or why not in a sentence it can act on. */
async function answer(call: HostToolCall, work: () => Promise<string>): Promise<ChatContent> {
  try {
    return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: await work() }] };
  } catch (error) {
    const why =
      error instanceof SkillRefusal
        ? `Not done: ${error.message}.`
        : error instanceof PendingWithdrawnError
          ? `Not done: the person could not be asked (${error.message}).`
          : `Not done: ${(error as Error).message}`;
    call.notice(why);
    return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: why }], isError: true };
  }
}

function text(input: Record<string, unknown>, key: string): string {
  const value = input[key];
  if (typeof value !== 'string' || value === '') throw new SkillRefusal(`give "${key}" as text`);
  return value;
}
