// What a tool declares about itself, with the specification's cautious defaults filled in (spec 000
// §2.4.5.2), and what that means for a lasting answer once a conversation holds untrusted content. The
// host's policy (main/host/approval/) decides with these; the window and the terminal use them to say
// what an answer will reach. In shared/, so both sides read a tool the same way.

import type { ToolAnnotationsView, ToolSummary } from './domain.ts';
import type { ToolReach } from './pendingPayloads.ts';

export interface EffectiveHints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
}

/** The spec's defaults for missing hints; every one of them is the cautious choice. */
export const SPEC_DEFAULT_HINTS: Readonly<EffectiveHints> = Object.freeze({
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
});

/**
 * The hints with the spec's defaults filled in. destructiveHint and idempotentHint mean something only
 * when readOnlyHint is false: a tool that changes nothing destroys nothing and can be repeated.
 */
export function effectiveHints(annotations: ToolAnnotationsView | undefined): EffectiveHints {
  const readOnly = annotations?.readOnlyHint ?? SPEC_DEFAULT_HINTS.readOnly;
  const openWorld = annotations?.openWorldHint ?? SPEC_DEFAULT_HINTS.openWorld;
  if (readOnly) return { readOnly, destructive: false, idempotent: true, openWorld };
  return {
    readOnly,
    destructive: annotations?.destructiveHint ?? SPEC_DEFAULT_HINTS.destructive,
    idempotent: annotations?.idempotentHint ?? SPEC_DEFAULT_HINTS.idempotent,
    openWorld,
  };
}

/**
 * A tool that could act on instructions injected into the conversation: it may delete things, or it
 * reaches beyond the computer (and could send out what the conversation holds). Judged by what it declares.
 */
export function couldActOnInjection(annotations: ToolAnnotationsView | undefined): boolean {
  const hints = effectiveHints(annotations);
  return hints.destructive || hints.openWorld;
}

/** The tool as a server-wide answer covers it: whether it is read-only, and whether an allow outlasts untrusted content. */
export function toolReach(tool: Pick<ToolSummary, 'name' | 'annotations'>): ToolReach {
  return { name: tool.name, readOnly: effectiveHints(tool.annotations).readOnly, keepsAfterUntrusted: !couldActOnInjection(tool.annotations) };
}
