// The consent step of the tool-call pipeline (tools/toolCallPipeline.ts): the grant ledger and the
// annotation policy decide, and when they say "ask", the person is asked through a pending tool-approval
// record that a front end settles (the CLI on its terminal, the window's dialog). Their answer can become a
// grant (this conversation, or always; per tool or per server). Every decision goes into the audit log. In
// a conversation that has read untrusted content, destructive and open-world tools ask every time
// (conversationTaint); what a conversation takes in is marked here too.

import type { ToolSummary } from '../../shared/domain.ts';
import type { ToolApprovalAnswer, ToolApprovalPayload } from '../../shared/pendingPayloads.ts';
import type { AuditLog } from './approval/auditLog.ts';
import type { ConversationTaint } from './approval/conversationTaint.ts';
import type { TaintSource } from './approval/conversationTaint.ts';
import { raisesTheBar, taintOf, taintReason } from './approval/conversationTaint.ts';
import type { ApprovalMode, Decision, GrantLedger } from './approval/grantLedger.ts';
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

/** Whether one call may run (it may ask the person), and what a conversation took in. */
export interface ConsentGate {
  /** The conversation has taken in the tool's result (whatever it says, error included). */
  tookIn(tool: ToolSummary, conversationId: string): void;
  check(call: {
    tool: ToolSummary;
    arguments: Record<string, unknown>;
    conversationId: string;
    signal: AbortSignal;
    /** MCP Apps: the view of this tool asks for the call, not the model. */
    fromView?: { serverId: string; tool: string };
    /** Names the call in the audit log. */
    callId?: string;
  }): Promise<GateDecision>;
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
  return {
    tookIn: (tool, conversationId) => {
      const why = taintOf(tool, deps.isTrusted(tool.serverId));
      if (why) deps.taint.mark(conversationId, { serverId: tool.serverId, tool: tool.name, why });
    },
    check: async ({ tool, arguments: args, conversationId, signal, fromView, callId }): Promise<GateDecision> => {
      const serverTrusted = deps.isTrusted(tool.serverId);
      const mode = deps.mode();
      const decided = deps.ledger.decide({ tool, serverTrusted, conversationId, mode });
      // The bar is raised because the model may have read instructions meant to steer it. A view's call
      // is not the model's: it is the server's own page asking for its own tool, so grants hold for it.
      const decision: RaisedDecision = fromView ? decided : raiseTheBar(decided, tool, serverTrusted, mode, deps.taint.of(conversationId));
      if (decision.kind !== 'ask') {
        if (decision.kind === 'allow' && decision.grantScope === 'once' && decision.grantId) deps.ledger.consumeOnce(decision.grantId);
        const allowed = decision.kind === 'allow';
        record(deps, { tool, args, conversationId, callId }, allowed, decision.by, askedBy(decision.reason, fromView));
        return { allowed, decidedBy: decision.by, reason: decision.reason };
      }
      let answer: ToolApprovalAnswer;
      try {
        answer = await deps.pending.request<'tool_approval', ToolApprovalAnswer>(
          'tool_approval',
          tool.serverId,
          {
            tool,
            arguments: args,
            annotationsTrusted: serverTrusted,
            elevated: decision.elevated,
            reason: decision.reason,
            ...(decision.raisedBy ? { raisedBy: decision.raisedBy } : {}),
            ...(fromView ? { fromView } : {}),
          },
          { conversationId, signal, check: checkApproval },
        );
      } catch (error) {
        // Withdrawn unanswered (the server went away, the turn was stopped, nobody could be asked): the
        // person decided nothing, and the model must not be told they did; the host's rule is not to run it.
        const reason = (error as Error).message;
        record(deps, { tool, args, conversationId, callId }, false, 'policy', askedBy(reason, fromView));
        return { allowed: false, decidedBy: 'policy', reason, unanswered: true };
      }
      if (answer.scope !== 'once') {
        deps.ledger.grant({
          scope: answer.scope,
          effect: answer.effect,
          subject: answer.target === 'server' ? { serverId: tool.serverId, tools: deps.toolsOf(tool.serverId) } : { tool },
          ...(answer.scope === 'conversation' ? { conversationId } : {}),
        });
      }
      const allowed = answer.effect === 'allow';
      const reason = `${allowed ? 'allowed' : 'denied'} by the person (${answer.scope === 'once' ? 'once' : `${answer.scope}, for this ${answer.target}`})`;
      record(deps, { tool, args, conversationId, callId }, allowed, 'person', askedBy(reason, fromView));
      return { allowed, decidedBy: 'person', reason };
    },
  };
}

type RaisedDecision = Decision & { raisedBy?: { serverId: string; tool: string } };

/**
 * In a conversation that has read untrusted content, a destructive or open-world tool is not let through
 * by a grant or the policy: it asks (or, where nobody can be asked, is denied), saying why. A deny stands,
 * and so does `--approve all`, which the person chose for the run knowing it asks nothing.
 */
function raiseTheBar(decision: Decision, tool: ToolSummary, serverTrusted: boolean, mode: ApprovalMode, taint: TaintSource | undefined): RaisedDecision {
  if (!taint || !raisesTheBar(tool, serverTrusted)) return decision;
  const raisedBy = { serverId: taint.serverId, tool: taint.tool };
  const why = taintReason(taint);
  if (decision.kind === 'deny' || (decision.by === 'mode' && mode === 'all')) return decision;
  if (decision.kind === 'ask') return { ...decision, reason: `${why}; ${decision.reason}`, raisedBy };
  if (mode === 'readonly') return { ...decision, kind: 'deny', by: 'mode', reason: `${why}, and --approve readonly cannot ask`, record: true };
  return { ...decision, kind: 'ask', reason: why, record: true, raisedBy };
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
