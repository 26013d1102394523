// The one way a tool call is made, whoever asks for it — the model in a turn, a tool's view (MCP Apps) or
// the person (`atrium call`, or any front end's callTool request):
//
//   resolve the tool in the catalog at this moment → withheld? (changed since approved, not for this
//   caller, turned off) → arguments against its input schema → consent (the person's own call is not
//   asked about; the pin still holds for it; a model's call asked with others of its step lists those
//   the person may answer with it) → the call, repeated only where a trusted server says that is safe →
//   what the conversation took in → the audit log.
//
// The callers are thin: each turns the outcome into its own words (a tool result for the model, an
// error for a view or a terminal). Checking at the moment of the call, not when a turn listed its tools,
// is what refuses a tool that changed in the middle of a turn.
//
// A call its server runs on as a task (MCP Tasks) is handed to whoever follows tasks (`tasks`) and ends
// here as a `task` outcome: the caller goes on. When the task ends, however much later (after a restart
// too), it is closed here as any call is (`closeTask`): what the conversation took in, the audit log.

import type { ProgressUpdate, ToolSummary } from '../../../shared/domain.ts';
import type { CallDecision, CallOrigin, CallOutcome, CallTask, TaskEnding, ToolCallRequest, ToolCalls } from '../../chat/turnTools.ts';
import { ServerError } from '../../mcp/connection/serverError.ts';
import { TaskRun } from '../../mcp/extensions/tasks/taskRun.ts';
import type { TaskRunEnd } from '../../mcp/extensions/tasks/taskRun.ts';
import type { AuditLog } from '../approval/auditLog.ts';
import type { StepCallShown } from '../approval/stepAnswers.ts';
import type { ConsentGate } from '../consentGate.ts';
import type { ToolRunner } from './resilientRunner.ts';
import type { ToolAudience, ToolCatalog } from './toolCatalog.ts';
import { argumentProblemsText } from '../invalidArguments.ts';
import { toolArgumentProblems } from './toolArguments.ts';
import type { CachedSchemaValidator } from '../../mcp/schemaValidatorCache.ts';

export interface ToolCallPipelineDeps {
  catalog: Pick<ToolCatalog, 'resolve' | 'withheld' | 'unavailable'>;
  consent: Pick<ConsentGate, 'check' | 'tookIn'>;
  /** Runs an allowed call on its server (the hub, made resilient, with each call's conversation noted). */
  runner: ToolRunner;
  /** Checks arguments against a tool's input schema, every problem at once. */
  validator: Pick<CachedSchemaValidator, 'errorsOf'>;
  audit: Pick<AuditLog, 'append'>;
  /** Told of every call's progress, whoever made it (the contract's `progress` event). */
  onProgress?(update: ProgressUpdate): void;
  /** Follows a task a call started to its end; without it, a task is waited for like a call. */
  tasks?: TaskFollower;
  /**
   * Told what a call that failed on its server said (its result marked as an error, or the error it
   * answered with): the sandbox lists a file it kept from the server.
   */
  onCallFailed?(serverId: string, said: string): void;
  /** Resolves once servers starting again on the host's own account (new roots, new sandboxes) are back, or after a bounded while. */
  serversSettled?(): Promise<void>;
  /** Resolves once a server starting, or starting again after a crash, is back (or stopped trying), a bounded while, or when `signal` ends the call. */
  serverBack?(serverId: string, signal: AbortSignal): Promise<void>;
  now?: () => number;
}

/** A call that became a task, as the pipeline hands it over and closes it when it ends. */
export interface StartedTaskCall {
  tool: ToolSummary;
  callId: string;
  origin: CallOrigin;
  arguments: Record<string, unknown>;
  decision: CallDecision;
  startedAt: number;
}

/** How a task ended, as its follower learnt it: its own end, or lost (its server's process ended, its server forgot it). */
export type TaskFinish = Exclude<TaskRunEnd, { kind: 'interrupted' }> | { kind: 'lost'; message: string };

/** Who follows the tasks calls start (the tasks extension's tracker): to their end, across restarts where it can. */
export interface TaskFollower {
  follow(run: TaskRun, call: StartedTaskCall): CallTask;
}

export interface ToolCallPipeline extends ToolCalls {
  /** Cancels one running call by its id, whoever made it; false when no such call runs. */
  cancel(callId: string): boolean;
}

const PERSONS_OWN_CALL: CallDecision = { decidedBy: 'person', reason: 'called by the person' };

export function createToolCallPipeline(deps: ToolCallPipelineDeps): ToolCallPipeline {
  const now = deps.now ?? Date.now;
  const running = new Map<string, AbortController>();

  const call = async (request: ToolCallRequest): Promise<CallOutcome> => {
    // Cancellable by its id from the moment it is asked for, before anything is awaited.
    const controller = new AbortController();
    const follow = () => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) follow();
    request.signal?.addEventListener('abort', follow, { once: true });
    running.set(request.callId, controller);
    try {
      return await decideAndRun(request, controller.signal);
    } finally {
      request.signal?.removeEventListener('abort', follow);
      if (running.get(request.callId) === controller) running.delete(request.callId);
    }
  };

  /** The tool as it is now, if a call of it may go on to consent: it exists, is not withheld, and the arguments fit. */
  const prepare = async (call: Pick<ToolCallRequest, 'serverId' | 'tool' | 'arguments' | 'origin'>): Promise<{ tool: ToolSummary } | { refused: Refused }> => {
    const { serverId, tool: name, arguments: args, origin } = call;
    // A call made while its server starts again for new roots finds it back, not stopped.
    await deps.serversSettled?.();
    const tool = await deps.catalog.resolve(serverId, name);
    if (!tool) return { refused: unresolved(serverId, name, deps.catalog.unavailable(serverId)) };
    const withheld = deps.catalog.withheld(tool, audienceOf(origin));
    if (withheld !== undefined) return { refused: { kind: 'refused', because: 'withheld', message: withheld, tool } };
    // A mismatch goes back to whoever asked, as an error they can fix; the server never sees it.
    const problems = toolArgumentProblems(deps.validator, tool.inputSchema, args);
    if (problems !== undefined) return { refused: { kind: 'refused', because: 'invalid-arguments', message: argumentProblemsText(problems), problems, tool } };
    return { tool };
  };

  /** The step's later calls that would reach consent, for the person to answer with this one. */
  const laterInStep = async (request: ToolCallRequest): Promise<StepCallShown[]> => {
    const shown: StepCallShown[] = [];
    for (const call of request.step?.later ?? []) {
      const prepared = await prepare({ ...call, origin: request.origin });
      if ('tool' in prepared) shown.push({ callId: call.callId, tool: prepared.tool, arguments: call.arguments });
    }
    return shown;
  };

  const decideAndRun = async (request: ToolCallRequest, signal: AbortSignal): Promise<CallOutcome> => {
    const { serverId, tool: name, arguments: args, origin } = request;
    // A server that crashed a moment ago is starting again: its tool is there once it is back.
    await deps.serverBack?.(serverId, signal);
    const prepared = await prepare(request);
    if ('refused' in prepared) {
      const { refused } = prepared;
      if (refused.because === 'withheld' && refused.tool) audit(refused.tool, request, { decision: 'deny', decidedBy: 'policy', outcome: 'denied', detail: refused.message });
      return refused;
    }
    const { tool } = prepared;
    const conversationId = origin.by === 'person' ? undefined : origin.conversationId;

    let decision: CallDecision;
    if (conversationId === undefined) {
      decision = PERSONS_OWN_CALL;
      audit(tool, request, { decision: 'allow', decidedBy: 'person', outcome: 'allowed', detail: decision.reason });
    } else {
      request.onAsking?.();
      const { step } = request;
      const decided = await deps.consent.check({
        tool,
        arguments: args,
        conversationId,
        signal,
        callId: request.callId,
        ...(origin.by === 'view' ? { fromView: origin.viewOf } : {}),
        ...(step ? { step: { id: step.id, later: () => laterInStep(request) } } : {}),
      });
      decision = { decidedBy: decided.decidedBy, reason: decided.reason };
      if (!decided.allowed) return { kind: 'denied', tool, decision, ...(decided.unanswered ? { unanswered: true as const } : {}) };
    }

    // The duration is the server's time, not the time the person took to approve.
    const startedAt = now();
    // Cancelled while it was being decided: it is not sent at all.
    if (signal.aborted) return { kind: 'cancelled', tool, decision, startedAt, error: new ServerError(serverId, 'cancelled', `${serverId}: tool "${name}": cancelled`) };
    request.onRunning?.();
    try {
      const started = await deps.runner.call(serverId, name, args, {
        signal,
        callId: request.callId,
        onProgress: (progress) => {
          request.onProgress?.(progress);
          deps.onProgress?.({ serverId, callId: request.callId, ...progress });
        },
        // In a conversation the person may want to keep chatting while a tool that may run as a task runs.
        task: origin.by === 'model' ? 'prefer' : 'allow',
        ...(conversationId !== undefined ? { conversationId } : {}),
      });
      if (started instanceof TaskRun) {
        const call: StartedTaskCall = { tool, callId: request.callId, origin, arguments: args, decision, startedAt };
        if (deps.tasks) return { kind: 'task', tool, decision, startedAt, task: deps.tasks.follow(started, call) };
        // Nobody follows tasks here: it is waited for as a call is.
        const ending = closeTask(deps, call, finishOf(await started.ended));
        if (ending.kind === 'done') return { kind: 'done', tool, decision, startedAt, result: ending.result };
        return { kind: ending.kind, tool, decision, startedAt, error: ending.error };
      }
      const result = started;
      if (result.isError === true) deps.onCallFailed?.(serverId, textOf(result));
      if (conversationId !== undefined) deps.consent.tookIn({ kind: 'tool', tool }, conversationId);
      audit(tool, request, { decision: 'allow', decidedBy: decision.decidedBy, outcome: result.isError === true ? 'error' : 'ok', durationMs: now() - startedAt, detail: 'the call ended' }, true);
      return { kind: 'done', tool, decision, startedAt, result };
    } catch (error) {
      const cancelled = signal.aborted;
      if (!cancelled && error instanceof ServerError) deps.onCallFailed?.(serverId, error.message);
      // A server's error message is its text too, and it reaches the model; a call that got no answer at all
      // (its time limit, in Atrium's words) brought nothing of the server's in.
      const unanswered = error instanceof ServerError && error.kind === 'timeout';
      if (!cancelled && !unanswered && conversationId !== undefined) deps.consent.tookIn({ kind: 'tool', tool }, conversationId);
      audit(tool, request, { decision: 'allow', decidedBy: decision.decidedBy, outcome: cancelled ? 'cancelled' : 'error', durationMs: now() - startedAt, detail: cancelled ? 'cancelled' : (error as Error).message }, true);
      return { kind: cancelled ? 'cancelled' : 'failed', tool, decision, startedAt, error: error as Error };
    }
  };

  // The line of a model's call that ended does not wait for the disk: its turn puts it there as it ends.
  const audit = (tool: ToolSummary, request: ToolCallRequest, entry: AuditFields, ended = false) =>
    auditCall(deps.audit, now(), tool, request, entry, { waitForDisk: !(ended && request.origin.by === 'model') });

  return {
    call,
    cancel: (callId) => {
      const controller = running.get(callId);
      controller?.abort(new Error('cancelled by the person'));
      return controller !== undefined;
    },
  };
}

type AuditFields = Pick<Parameters<AuditLog['append']>[0], 'decision' | 'decidedBy' | 'outcome' | 'durationMs' | 'detail'>;

/** One line of the audit log for a call, saying who asked. */
function auditCall(
  log: Pick<AuditLog, 'append'>,
  at: number,
  tool: ToolSummary,
  call: Pick<ToolCallRequest, 'origin' | 'arguments' | 'callId'>,
  entry: AuditFields,
  options?: { waitForDisk: boolean },
): void {
  const { origin } = call;
  log.append(
    {
      at,
      serverId: tool.serverId,
      tool: tool.name,
      arguments: call.arguments,
      callId: call.callId,
      ...(origin.by === 'person' ? {} : { conversationId: origin.conversationId }),
      ...entry,
      detail: origin.by === 'view' ? `${entry.detail}; asked by the view of ${origin.viewOf.serverId}/${origin.viewOf.tool}` : (entry.detail ?? ''),
    },
    options,
  );
}

/**
 * Closes a call that ran as a task, when the task ends (also one followed again after a restart): its
 * result or failure is what the conversation took in, and its end goes in the audit log.
 */
export function closeTask(
  deps: { consent: Pick<ConsentGate, 'tookIn'>; audit: Pick<AuditLog, 'append'>; onCallFailed?: ToolCallPipelineDeps['onCallFailed']; now?: () => number },
  call: StartedTaskCall,
  finish: TaskFinish,
): TaskEnding {
  const now = deps.now ?? Date.now;
  const { tool, origin, decision } = call;
  // A task's failure is its server's word as a call's is: the sandbox may explain it.
  if (finish.kind === 'completed' && finish.result.isError === true) deps.onCallFailed?.(tool.serverId, textOf(finish.result));
  if (finish.kind === 'failed') deps.onCallFailed?.(tool.serverId, finish.message);
  if (origin.by !== 'person' && (finish.kind === 'completed' || finish.kind === 'failed')) deps.consent.tookIn({ kind: 'tool', tool }, origin.conversationId);
  const outcome = finish.kind === 'completed' ? (finish.result.isError === true ? 'error' : 'ok') : finish.kind === 'cancelled' ? 'cancelled' : 'error';
  const said = finish.kind === 'completed' ? 'the task ended' : finish.kind === 'cancelled' ? `the task was cancelled${finish.reason ? `: ${finish.reason}` : ''}` : finish.message;
  auditCall(deps.audit, now(), tool, call, { decision: 'allow', decidedBy: decision.decidedBy, outcome, durationMs: now() - call.startedAt, detail: said });
  if (finish.kind === 'completed') return { kind: 'done', result: finish.result };
  const what = `${tool.serverId}: tool "${tool.name}"`;
  if (finish.kind === 'cancelled') return { kind: 'cancelled', error: new ServerError(tool.serverId, 'cancelled', `${what}: ${said}`), reason: said };
  return { kind: 'failed', error: new ServerError(tool.serverId, finish.kind === 'lost' ? 'unavailable' : 'failed', `${what}: ${finish.message}`), reason: finish.message };
}

/** A result's text parts, as its server wrote them. */
function textOf(result: { content?: unknown }): string {
  const parts = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  return parts.flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
}

/** A run's end as the pipeline closes it: a connection that ended first lost the task for this caller. */
function finishOf(end: TaskRunEnd): TaskFinish {
  return end.kind === 'interrupted' ? { kind: 'lost', message: end.message } : end;
}

/** A call whose tool is not there: the server is gone or not ready (its own error), or it has no such tool. */
type Refused = Extract<CallOutcome, { kind: 'refused' }>;

function unresolved(serverId: string, name: string, unavailable: Error | undefined): Refused {
  if (!unavailable) return { kind: 'refused', because: 'unknown-tool', message: `${serverId} does not offer a tool named "${name}"` };
  const gone = unavailable instanceof ServerError && unavailable.kind === 'not_found';
  return { kind: 'refused', because: gone ? 'unknown-server' : 'server-unavailable', message: unavailable.message, error: unavailable };
}

function audienceOf(origin: ToolCallRequest['origin']): ToolAudience {
  return origin.by === 'model' ? 'model' : origin.by === 'view' ? 'view' : 'person';
}
