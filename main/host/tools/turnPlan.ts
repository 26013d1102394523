// The tools of one turn, worked out from what could be offered: which are offered and which withheld
// (and why), whether the model searches instead of getting them all (toolDeferral), and — while it does —
// what it has without searching: the tools the person keeps always loaded, then what the conversation
// loaded before (found, called, or loaded by hand), most recent first. Pure: the catalog gathers the inputs.

import type { LoadedToolView, ToolSummary } from '../../../shared/domain.ts';
import type { ModelContext, TurnToolPlan } from '../../chat/turnTools.ts';
import type { LoadedToolEntry } from '../../store/loadedToolStore.ts';
import { deferralVerdict } from './toolDeferral.ts';

export interface PlanOptions {
  threshold?: number;
  contextShare?: number;
  context?: ModelContext;
  /** What the conversation loaded before, most recently used first. */
  kept: readonly LoadedToolEntry[];
}

export function planTurn(candidates: readonly ToolSummary[], withheldWhy: (tool: ToolSummary) => string | undefined, options: PlanOptions): TurnToolPlan {
  const withheld: TurnToolPlan['withheld'] = [];
  const offered: ToolSummary[] = [];
  for (const tool of candidates) {
    const why = withheldWhy(tool);
    if (why === undefined) offered.push(tool);
    else withheld.push({ tool, why });
  }
  // A stable order: the same tools are sent the same way every time, which keeps prompt caches warm.
  offered.sort((a, b) => (a.modelName < b.modelName ? -1 : 1));
  const verdict = deferralVerdict(offered, options);
  if (!verdict.searching) return { offered, withheld, loaded: [] };
  const byName = new Map(offered.map((tool) => [tool.modelName, tool]));
  const view = (tool: ToolSummary, how: LoadedToolView['how']): LoadedToolView => ({ modelName: tool.modelName, serverId: tool.serverId, tool: tool.name, how });
  const always = offered.filter((tool) => tool.alwaysLoaded).map((tool) => view(tool, { kind: 'always' }));
  const kept = options.kept.flatMap((entry) => {
    const tool = byName.get(entry.modelName);
    return tool && !tool.alwaysLoaded ? [view(tool, entry.how)] : [];
  });
  return { offered, withheld, ...(verdict.why ? { searching: verdict.why } : {}), loaded: [...always, ...kept] };
}
