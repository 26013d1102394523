// The consent step of the tool-call pipeline (tools/toolCallPipeline.ts): the grant ledger and the
// annotation policy decide, and when they say "ask", the person is asked through a pending tool-approval
// record that a front end settles (the CLI on its terminal, the window's dialog). Their answer can become a
// grant (this conversation, or always; per tool, for the server's read-only tools, or for every tool), or
// answer the other calls of the same step with it (approval/stepAnswers). Every decision goes into the
// audit log. In a conversation that holds untrusted content, tools that may delete things or reach beyond
// the computer ask every time (conversationTaint); what a conversation takes in is marked here too.

import type { ToolSummary } from '../../shared/domain.ts';
import type { AlongsideCall, ToolApprovalAnswer, ToolApprovalPayload, UntrustedSource } from '../../shared/pendingPayloads.ts';
import { toolReach } from '../../shared/toolHints.ts';
import type { AuditLog } from './approval/auditLog.ts';
import type { ConversationTaint, TakenIn } from './approval/conversationTaint.ts';
import { raisesTheBar, taintOf, taintReason } from './approval/conversationTaint.ts';
import type { ApprovalMode, Decision, GrantLedger } from './approval/grantLedger.ts';
import { StepAnswers } from './approval/stepAnswers.ts';
import type { StepCallShown } from './approval/stepAnswers.ts';
import { toolApprovalOutcomeSchema } from '../../shared/pendingPayloads.ts';
import { outcomeChecker } from './pendingOutcomes.ts';
import type { PendingRequests } from './pendingRequests.ts';

const checkApproval = outcomeChecker(toolApprovalOutcomeSchema, 'tool approval');

export type { ToolApprovalAnswer, ToolApprovalPayload };

export interface GateDecision {
  allowed: boolean;
  decidedBy: 'person' | 'policy' | 'grant' | 'mode';
  /** Nobody answered: the request was withdrawn (the server went away, nobody could be asked). */
  unanswered?: true;
  reason: string;
}

/** The model's other calls of the same step, still to come, as the pipeline would run them now. */
export interface StepOfCalls {
  /** Names the step (the model's message that asked for the calls). */
  id: string;
  /** The later calls that would reach consent: known tools, not withheld, arguments that fit. */
  later(): Promise<StepCallShown[]>;
}

export interface ConsentCheck {
  tool: ToolSummary;
  arguments: Record<string, unknown>;
  conversationId: string;
  signal: AbortSignal;
  /** MCP Apps: the view of this tool asks for the call, not the model. */
  fromView?: { serverId: string; tool: string };
  /** Names the call in the audit log, and among its step's. */
  callId?: string;
  /** The model asked for this call with others in one step: they can be answered together. */
  step?: StepOfCalls;
}

/** Whether one call may run (it may ask the person), and what a conversation took in. */
export interface ConsentGate {
  /** The conversation has taken in this content (a tool's result, whatever it says, error included). */
  tookIn(content: TakenIn, conversationId: string): void;
  check(call: ConsentCheck): Promise<GateDecision>;
}

export interface ConsentGateDeps {
  ledger: GrantLedger;
  audit: AuditLog;
  pending: PendingRequests;
  taint: ConversationTaint;
  isTrusted(serverId: string): boolean;
  /** The server's current tools, for a server-wide grant. */
  toolsOf(serverId: string): ToolSummary[];
  /** Read at every call: a mode chosen in Settings applies to the next call. */
  mode(): ApprovalMode;
}

export function createConsentGate(deps: ConsentGateDeps): ConsentGate {
  const stepAnswers = new StepAnswers();

  /** How the call would be decided now, the raised bar included. A view's call is not the model's: it is the server's own page asking for its own tool, so grants hold for it. */
  const decide = (tool: ToolSummary, conversationId: string, fromView: ConsentCheck['fromView']): RaisedDecision => {
    const mode = deps.mode();
    const decided = deps.ledger.decide({ tool, serverTrusted: deps.isTrusted(tool.serverId), conversationId, mode });
    return fromView ? decided : raiseTheBar(decided, tool, mode, deps.taint.of(conversationId));
  };

  /** The step's later calls that would ask too, to list with this question. */
  const alongsideOf = async (step: StepOfCalls | undefined, conversationId: string): Promise<AlongsideCall[]> => {
    if (!step) return [];
    const alongside: AlongsideCall[] = [];
    for (const call of await step.later()) {
      const decision = decide(call.tool, conversationId, undefined);
      if (decision.kind === 'ask') alongside.push({ ...call, elevated: decision.elevated, raised: decision.raisedBy !== undefined });
    }
    return alongside;
  };

  return {
    tookIn: (content, conversationId) => {
      const source = taintOf(content, deps.isTrusted);
      if (source) deps.taint.mark(conversationId, source);
    },
    check: async ({ tool, arguments: args, conversationId, signal, fromView, callId, step }): Promise<GateDecision> => {
      const named = { tool, args, conversationId, callId };
      const decision = decide(tool, conversationId, fromView);
      if (decision.kind === 'ask' && step && callId !== undefined) {
        // Answered already, with the call of this step the person was asked about.
        const effect = stepAnswers.take(conversationId, step.id, { callId, tool, arguments: args });
        if (effect !== undefined) {
          const reason = `${effect === 'allow' ? 'allowed' : 'denied'} by the person, with the other calls of this step`;
          record(deps, named, effect === 'allow', 'person', reason);
          return { allowed: effect === 'allow', decidedBy: 'person', reason };
        }
      }
      if (decision.kind !== 'ask') {
        if (decision.kind === 'allow' && decision.grantScope === 'once' && decision.grantId) deps.ledger.consumeOnce(decision.grantId);
        const allowed = decision.kind === 'allow';
        record(deps, named, allowed, decision.by, askedBy(decision.reason, fromView));
        return { allowed, decidedBy: decision.by, reason: decision.reason };
      }
      const serverTrusted = deps.isTrusted(tool.serverId);
      const untrusted = fromView ? undefined : deps.taint.of(conversationId);
      const alongside = fromView ? [] : await alongsideOf(step, conversationId);
      const payload: ToolApprovalPayload = {
        tool,
        arguments: args,
        annotationsTrusted: serverTrusted,
        elevated: decision.elevated,
        reason: decision.reason,
        ...(untrusted ? { untrustedContent: sourceOnly(untrusted) } : {}),
        ...(decision.raisedBy ? { raisedBy: decision.raisedBy } : {}),
        keepsAfterUntrusted: !raisesTheBar(tool),
        serverTools: deps.toolsOf(tool.serverId).map(toolReach),
        ...(alongside.length > 0 ? { alongside } : {}),
        ...(fromView ? { fromView } : {}),
      };
      let answer: ToolApprovalAnswer;
      try {
        answer = await deps.pending.request<'tool_approval', ToolApprovalAnswer>('tool_approval', tool.serverId, payload, { conversationId, signal, check: checkApproval });
      } catch (error) {
        // Withdrawn unanswered (the server went away, the turn was stopped, nobody could be asked): the
        // person decided nothing, and the model must not be told they did; the host's rule is not to run it.
        const reason = (error as Error).message;
        record(deps, named, false, 'policy', askedBy(reason, fromView));
        return { allowed: false, decidedBy: 'policy', reason, unanswered: true };
      }
      const allowed = answer.effect === 'allow';
      if (answer.scope === 'step') {
        if (step && alongside.length > 0) stepAnswers.answer(conversationId, step.id, answer.effect, alongside);
      } else if (answer.scope !== 'once') {
        deps.ledger.grant({
          scope: answer.scope,
          effect: answer.effect,
          subject: answer.target === 'tool' ? { tool } : { serverId: tool.serverId, tools: deps.toolsOf(tool.serverId), ...(answer.target === 'read-only-tools' ? { only: 'read-only' as const } : {}) },
          ...(answer.scope === 'conversation' ? { conversationId } : {}),
        });
      }
      const reason = `${allowed ? 'allowed' : 'denied'} by the person (${answeredHow(answer, alongside.length)})`;
      record(deps, named, allowed, 'person', askedBy(reason, fromView));
      return { allowed, decidedBy: 'person', reason };
    },
  };
}

type RaisedDecision = Decision & { raisedBy?: UntrustedSource };

/**
 * In a conversation that holds untrusted content, a tool that may delete things or reach beyond the
 * computer is not let through by a grant or the policy: it asks (or, where nobody can be asked, is
 * denied), saying why. A deny stands, and so does `--approve all`, which the person chose for the run
 * knowing it asks nothing. A tool that declares it deletes nothing and stays on the computer keeps its answer.
 */
function raiseTheBar(decision: Decision, tool: ToolSummary, mode: ApprovalMode, taint: UntrustedSource | undefined): RaisedDecision {
  if (!taint || !raisesTheBar(tool)) return decision;
  const raisedBy = sourceOnly(taint);
  const why = taintReason(raisedBy);
  if (decision.kind === 'deny' || (decision.by === 'mode' && mode === 'all')) return decision;
  if (decision.kind === 'ask') return { ...decision, reason: `${why}; ${decision.reason}`, raisedBy };
  if (mode === 'readonly') return { ...decision, kind: 'deny', by: 'mode', reason: `${why}, and --approve readonly cannot ask`, record: true };
  return { ...decision, kind: 'ask', reason: why, record: true, raisedBy };
}

function sourceOnly({ serverId, kind, name, why }: UntrustedSource): UntrustedSource {
  return { serverId, kind, name, why };
}

/** How far the person's answer reached, for the audit log and the model. */
function answeredHow(answer: ToolApprovalAnswer, alongside: number): string {
  if (answer.scope === 'once') return 'once';
  if (answer.scope === 'step') return alongside > 0 ? `once, with the ${alongside} other call${alongside === 1 ? '' : 's'} of this step` : 'once';
  const what = answer.target === 'tool' ? 'this tool' : answer.target === 'read-only-tools' ? "the server's read-only tools" : 'every tool of the server';
  return `${answer.scope === 'always' ? 'always' : 'in this conversation'}, for ${what}`;
}

/** The audit log says when a view, not the model, asked for the call. */
function askedBy(reason: string, fromView: { serverId: string; tool: string } | undefined): string {
  return fromView ? `${reason}; asked by the view of ${fromView.serverId}/${fromView.tool}` : reason;
}

interface CallNamed {
  tool: ToolSummary;
  args: Record<string, unknown>;
  conversationId: string;
  callId: string | undefined;
}

function record(deps: ConsentGateDeps, { tool, args, conversationId, callId }: CallNamed, allowed: boolean, by: GateDecision['decidedBy'], reason: string): void {
  deps.audit.append({
    at: Date.now(),
    serverId: tool.serverId,
    tool: tool.name,
    arguments: args,
    decision: allowed ? 'allow' : 'deny',
    decidedBy: by,
    outcome: allowed ? 'allowed' : 'denied',
    conversationId,
    ...(callId ? { callId } : {}),
    detail: reason,
  });
}
