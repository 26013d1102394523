// What a tool declares for MCP Apps (the official extension io.modelcontextprotocol/ui) in its `_meta`:
// the view its results show — a `ui://` resource of the same server — and who may call it. A server's
// word, so it is read defensively: only a `ui://` address is a view, only the known audiences count.
// Visibility is audience filtering the spec puts on the host: a tool for its view only ('app') is never
// offered to the model, and a model that names it anyway is refused.

import type { ToolSummary } from '../../../../shared/domain.ts';

/** The longest view address taken; a longer one is not a view. */
const MAX_VIEW_URI = 2048;
const audiences = ['model', 'app'] as const;

export type AppMeta = Pick<ToolSummary, 'view' | 'visibility'>;

/** The view and visibility a tool's `_meta` declares (`_meta.ui`, or the older `_meta["ui/resourceUri"]`). */
export function appMetaOf(meta: unknown): AppMeta {
  if (typeof meta !== 'object' || meta === null) return {};
  const record = meta as Record<string, unknown>;
  const ui = typeof record['ui'] === 'object' && record['ui'] !== null ? (record['ui'] as Record<string, unknown>) : {};
  const uri = ui['resourceUri'] ?? record['ui/resourceUri'];
  const view = typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= MAX_VIEW_URI ? { resourceUri: uri } : undefined;
  const declared = Array.isArray(ui['visibility']) ? audiences.filter((audience) => (ui['visibility'] as unknown[]).includes(audience)) : [];
  return { ...(view ? { view } : {}), ...(declared.length > 0 ? { visibility: declared } : {}) };
}

/** Whether the model may see and call the tool: unless it is declared for its view only. */
export function isForTheModel(tool: Pick<ToolSummary, 'visibility'>): boolean {
  return tool.visibility === undefined || tool.visibility.includes('model');
}
