// What changed between two definitions of one tool, field by field, for the person approving the new one:
// only the fields that differ, each as lines marked kept, removed or added (a longest-common-subsequence
// line diff, so an inserted sentence shows as one added line, not a rewritten field). Schemas and
// annotations are compared as pretty JSON with sorted keys, so key order is not a change.

import type { ToolDefinitionView } from './domain.ts';

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string };

export interface FieldChange {
  label: string;
  lines: DiffLine[];
}

const FIELDS: readonly { key: keyof ToolDefinitionView; label: string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'description', label: 'Description' },
  { key: 'inputSchema', label: 'Input schema' },
  { key: 'outputSchema', label: 'Output schema' },
  { key: 'annotations', label: 'Annotations' },
];

export function definitionChanges(before: ToolDefinitionView, after: ToolDefinitionView): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const { key, label } of FIELDS) {
    const old = textOf(before[key]);
    const now = textOf(after[key]);
    if (old !== now) changes.push({ label, lines: lineDiff(old, now) });
  }
  return changes;
}

function textOf(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(sorted(value), null, 2);
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sorted(v)]));
}

/** Lines of `before` and `after`, each marked; sentences of a one-line description are split so a change shows where it is. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // Past this size a full table costs too much; the whole field is shown as replaced.
  if (a.length * b.length > 250_000) return [...a.map((text) => ({ kind: 'removed' as const, text })), ...b.map((text) => ({ kind: 'added' as const, text }))];
  const common: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (common[i + 1]![j]! >= common[i]![j + 1]!) {
      lines.push({ kind: 'removed', text: a[i++]! });
    } else {
      lines.push({ kind: 'added', text: b[j++]! });
    }
  }
  while (i < a.length) lines.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) lines.push({ kind: 'added', text: b[j++]! });
  return lines;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.split('\n').flatMap((line) => line.split(/(?<=[.!?])\s+(?=\S)/));
}
