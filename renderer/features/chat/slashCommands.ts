import type { PromptSummary } from '../../../shared/domain.ts';

/** How well `query` fits a prompt: its characters in order within "server/name title"; lower is better, null is no match. */
export function fuzzyScore(query: string, prompt: PromptSummary): number | null {
  const haystack = `${prompt.serverId}/${prompt.name} ${prompt.title ?? ''}`.toLowerCase();
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

/** The prompts that fit, best first (then by server and name, so the list is stable). */
export function matchPrompts(query: string, prompts: readonly PromptSummary[], limit = 12): PromptSummary[] {
  return prompts
    .map((prompt) => ({ prompt, score: fuzzyScore(query, prompt) }))
    .filter((entry): entry is { prompt: PromptSummary; score: number } => entry.score !== null)
    .sort((a, b) => a.score - b.score || `${a.prompt.serverId}/${a.prompt.name}`.localeCompare(`${b.prompt.serverId}/${b.prompt.name}`))
    .slice(0, limit)
    .map((entry) => entry.prompt);
}
