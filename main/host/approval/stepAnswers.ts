// The person's answer to several calls at once. A model may ask for several tool calls in one step; the
// pipeline runs them one after another, and when the first of them asks, the question lists the others
// that would ask too. The person may answer them together: each listed call is then allowed (or denied)
// once, as it was shown — the same tool definition and the same arguments — when its turn comes. The model
// wrote every call of a step before it read any of their results, so answering them together is as safe
// as answering them one by one. Kept in memory: a step does not outlive its turn.

import type { GrantEffect, ToolSummary } from '../../../shared/domain.ts';
import { canonicalJson, toolFingerprint } from './toolFingerprint.ts';

export interface StepCallShown {
  callId: string;
  tool: ToolSummary;
  arguments: Record<string, unknown>;
}

interface StepAnswer {
  stepId: string;
  effect: GrantEffect;
  /** Call id → what the person saw of it. */
  calls: Map<string, string>;
}

export class StepAnswers {
  // One step per conversation runs at a time: a new step's answer replaces an older one left unspent.
  private readonly byConversation = new Map<string, StepAnswer>();

  /** The person answered these calls of the step together with the one they were asked about. */
  answer(conversationId: string, stepId: string, effect: GrantEffect, calls: readonly StepCallShown[]): void {
    this.byConversation.set(conversationId, { stepId, effect, calls: new Map(calls.map((call) => [call.callId, seen(call)])) });
  }

  /** Spends the answer given for this call, if the person saw it as it is now; undefined when there is none. */
  take(conversationId: string, stepId: string, call: StepCallShown): GrantEffect | undefined {
    const answer = this.byConversation.get(conversationId);
    if (!answer || answer.stepId !== stepId) return undefined;
    const shown = answer.calls.get(call.callId);
    if (shown === undefined) return undefined;
    answer.calls.delete(call.callId);
    if (answer.calls.size === 0) this.byConversation.delete(conversationId);
    return shown === seen(call) ? answer.effect : undefined;
  }
}

function seen(call: StepCallShown): string {
  return `${toolFingerprint(call.tool)}\n${canonicalJson(call.arguments)}`;
}
