// Words the skills' window parts share: a size, a change since approval, where the person stands.

import type { SkillApproval, SkillChange } from '../contract/skillViews.ts';

export function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString('en', { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
}

/** Each file added, removed or changed, as a line. */
export function changeLines(change: SkillChange): { sign: '+' | '−' | '~'; path: string; what: string }[] {
  return [
    ...change.added.map((path) => ({ sign: '+' as const, path, what: 'added' })),
    ...change.removed.map((path) => ({ sign: '−' as const, path, what: 'removed' })),
    ...change.changed.map((path) => ({ sign: '~' as const, path, what: 'changed' })),
  ];
}

export function approvalText(approval: SkillApproval): string {
  switch (approval.kind) {
    case 'not-asked':
      return 'Not used yet: the first use asks you';
    case 'approved':
      return `Approved ${new Date(approval.since).toLocaleDateString()}${approval.toolsGranted.length > 0 ? `, with ${approval.toolsGranted.join(', ')} allowed without asking` : ''}`;
    case 'changed':
      return 'Changed since you approved it: the next use asks again';
  }
}
