import type { PromptSummary } from '../../../shared/domain.ts';
import type { SkillSummary } from '../../../main/mcp/extensions/skills/contract/skillViews.ts';

/** What "/" offers: a server's prompt, or a server's skill. */
export type SlashOption = { kind: 'prompt'; prompt: PromptSummary } | { kind: 'skill'; skill: SkillSummary };

type Named = Pick<PromptSummary, 'serverId' | 'name' | 'title'>;

/** How well `query` fits a prompt or skill: its characters in order within "server/name title"; lower is better, null is no match. */
export function fuzzyScore(query: string, named: Named): number | null {
  const haystack = `${named.serverId}/${named.name} ${named.title ?? ''}`.toLowerCase();
  const needle = query.toLowerCase();
  if (needle === '') return 0;
  const direct = haystack.indexOf(needle);
  if (direct >= 0) return direct;
  let at = -1;
  let gaps = 0;
  for (const ch of needle) {
    const next = haystack.indexOf(ch, at + 1);
    if (next < 0) return null;
    gaps += next - at - 1;
    at = next;
  }
  return 1000 + gaps;
}

function namedOf(option: SlashOption): Named {
  return option.kind === 'prompt' ? option.prompt : option.skill;
}

/** The server and name that tell an option apart (a skill also by its URI: two may share a name). */
export function optionKey(option: SlashOption): string {
  return option.kind === 'prompt' ? `prompt ${option.prompt.serverId}/${option.prompt.name}` : `skill ${option.skill.serverId} ${option.skill.uri}`;
}

/** The prompts and skills that fit, best first (then by server and name, so the list is stable). */
export function matchSlash(query: string, options: readonly SlashOption[], limit = 12): SlashOption[] {
  return options
    .map((option) => ({ option, score: fuzzyScore(query, namedOf(option)) }))
    .filter((entry): entry is { option: SlashOption; score: number } => entry.score !== null)
    .sort((a, b) => a.score - b.score || optionKey(a.option).localeCompare(optionKey(b.option)))
    .slice(0, limit)
    .map((entry) => entry.option);
}
