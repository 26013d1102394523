import type { LoadedToolView } from '../../../shared/domain.ts';

/** Why the model has a tool without searching for it, as the person reads it. */
export function loadedBecause(how: LoadedToolView['how']): string {
  switch (how.kind) {
    case 'always':
      return 'always loaded';
    case 'by-hand':
      return 'loaded by you';
    case 'search':
      return `found by the search “${how.query}”`;
    case 'called':
      return 'used earlier in this conversation';
  }
}
