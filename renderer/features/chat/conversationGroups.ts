import type { ConversationSummary } from '../../../shared/contract.ts';

/** The spans of time the conversations list is cut into, newest first, as chat apps cut theirs. */
const GROUPS = ['Today', 'Yesterday', 'Previous 7 days', 'Previous 30 days', 'Older'] as const;
export type DateGroup = (typeof GROUPS)[number];

/** Which span a conversation last written in at `updatedAt` falls in, counted in the person's days. */
export function dateGroupOf(updatedAt: number, now: Date): DateGroup {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const day = 24 * 60 * 60 * 1000;
  if (updatedAt >= startOfToday) return 'Today';
  if (updatedAt >= startOfToday - day) return 'Yesterday';
  if (updatedAt >= startOfToday - 7 * day) return 'Previous 7 days';
  if (updatedAt >= startOfToday - 30 * day) return 'Previous 30 days';
  return 'Older';
}

/** The conversations (newest first) in their spans, in order; a span with none is left out. */
export function groupByDate(conversations: readonly ConversationSummary[], now: Date): Array<{ group: DateGroup; conversations: ConversationSummary[] }> {
  const byGroup = new Map<DateGroup, ConversationSummary[]>();
  for (const conversation of conversations) {
    const group = dateGroupOf(conversation.updatedAt, now);
    byGroup.set(group, [...(byGroup.get(group) ?? []), conversation]);
  }
  return GROUPS.flatMap((group) => {
    const found = byGroup.get(group);
    return found ? [{ group, conversations: found }] : [];
  });
}
