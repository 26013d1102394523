// The default answer for a tool call nobody has answered yet, from the tool's annotations (spec 000
// §2.4.5.2): read-only → allow; idempotent and not destructive → allow and record; destructive → ask;
// destructive and open-world → ask with an elevated warning. Annotations are hints a server writes about
// itself, so they are believed only for servers the person marked trusted (spec 003: "clients MUST
// consider tool annotations to be untrusted unless they come from trusted servers").

import type { ToolAnnotationsView } from '../../../shared/domain.ts';
import { effectiveHints, SPEC_DEFAULT_HINTS } from '../../../shared/toolHints.ts';
import type { EffectiveHints } from '../../../shared/toolHints.ts';

export type DecisionKind = 'allow' | 'ask' | 'deny';

export interface PolicyDecision {
  kind: DecisionKind;
  /** Show the call to the person as it happens, not only in the audit log (which has every call). */
  record: boolean;
  /** When asking: warn that the tool may make irreversible changes outside the person's machine. */
  elevated: boolean;
  /** A sentence for the person saying why. */
  reason: string;
}

/** The hints Atrium acts on: a server's own, when it is trusted; the spec's cautious defaults otherwise. */
export function believedHints(annotations: ToolAnnotationsView | undefined, serverTrusted: boolean): EffectiveHints {
  return serverTrusted ? effectiveHints(annotations) : { ...SPEC_DEFAULT_HINTS };
}

export function defaultDecision(tool: { annotations?: ToolAnnotationsView }, serverTrusted: boolean): PolicyDecision {
  if (!serverTrusted) {
    // Not believing the annotations means assuming the defaults, the worst case: every tool of an
    // untrusted server asks. The stronger warning is kept for a tool whose server itself says it destroys
    // things beyond this computer: a warning is worth believing from anyone, and one shown on every call
    // (a read-only one included) teaches people to skip it.
    return {
      kind: 'ask',
      record: true,
      elevated: declaresDestructiveOpenWorld(tool.annotations),
      reason: 'every call of a server that is not trusted asks, whatever its tools declare',
    };
  }
  const hints = effectiveHints(tool.annotations);
  const missing = tool.annotations === undefined ? ' (it declares no annotations, so the spec assumes the worst)' : '';
  if (hints.readOnly) {
    // Open-world tools get "enhanced monitoring" (spec 000 §2.4.9): a web search is shown as it runs.
    return hints.openWorld
      ? { kind: 'allow', record: true, elevated: false, reason: 'read-only tool of a trusted server that reaches outside your machine' }
      : { kind: 'allow', record: false, elevated: false, reason: 'read-only tool of a trusted server' };
  }
  if (hints.destructive) {
    return hints.openWorld
      ? { kind: 'ask', record: true, elevated: true, reason: `destructive tool of a trusted server that reaches outside your machine${missing}` }
      : { kind: 'ask', record: true, elevated: false, reason: 'destructive tool of a trusted server' };
  }
  if (hints.idempotent) {
    return { kind: 'allow', record: true, elevated: false, reason: 'idempotent, non-destructive tool of a trusted server' };
  }
  // Changes state, not destructively, but repeating it adds more (e.g. sends another message): the spec's
  // table has no row for it, and an unset answer means ask.
  return { kind: 'ask', record: true, elevated: false, reason: 'tool of a trusted server that changes things and is not idempotent' };
}

/** The server's own word that the tool may destroy things and reach beyond the machine (defaults aside). */
function declaresDestructiveOpenWorld(annotations: ToolAnnotationsView | undefined): boolean {
  return annotations?.destructiveHint === true && annotations.readOnlyHint !== true && annotations.openWorldHint !== false;
}
