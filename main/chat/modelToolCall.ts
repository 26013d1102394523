// One tool call the model made, in a turn: handed to the one tool-call pipeline (which resolves the tool
// now, checks its pin, its arguments and consent, runs it and audits it), then said back to the model as a
// tool result, saved with the conversation and shown live to the person.

import type { ChatTurnEvent, ToolCallOutcome as LiveOutcome, ToolSummary } from '../../shared/domain.ts';
import { outputSchemaAtCall } from '../../shared/domain.ts';
import type { ChatContent, FinishedToolCall, ToolCallUnderway } from '../../shared/conversation.ts';
import { toolResultForModel } from './toolResultForModel.ts';
import type { CallOutcome, StepCall, ToolCalls } from './turnTools.ts';
import { nearestWord } from '../../shared/nearestWord.ts';

interface ModelCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** What a model's call needs of its turn: the pipeline, where the call is saved, where it is shown. */
export interface ModelCallDeps {
  calls: ToolCalls;
  /** Saves a call once it has ended (in the conversation's history). */
  record(call: FinishedToolCall): void;
  /** Saves a call as it waits for the person or starts running. */
  underway?(call: ToolCallUnderway): void;
  onEvent(event: ChatTurnEvent): void;
  resultBudgetChars?: number;
}

interface CallContext {
  conversationId: string;
  messageId: string;
  /** The turn's: stopping the turn cancels the call (the person can also cancel it alone, by its id). */
  signal: AbortSignal;
  /** The model's step this call is one of, with the calls after it: the person may answer them together. */
  step?: { id: string; later: readonly StepCall[] };
  /** The model-facing names of the turn's tools: a name the model got slightly wrong is answered with the one meant. */
  toolNames?: readonly string[];
}

/**
 * Runs the call through the pipeline and returns its tool result for the model. `tool` is the tool the
 * model-facing name stood for when the turn offered it: the pipeline looks it up again as it is now.
 */
export async function runModelToolCall(call: ModelCall, tool: ToolSummary | undefined, context: CallContext, deps: ModelCallDeps): Promise<ChatContent> {
  const { conversationId, messageId } = context;
  const base = {
    id: call.id,
    conversationId,
    messageId,
    modelName: call.name,
    arguments: call.input,
    // Kept with the call, so the history shows what the result was checked against then.
    ...(tool ? { outputSchema: outputSchemaAtCall(tool) } : {}),
  };
  if (!tool) {
    const meant = nearestWord(call.name, context.toolNames ?? []);
    const text = `There is no tool named "${call.name}".${meant ? ` Did you mean "${meant}"?` : ''}`;
    // Said to the person as what happened: the model named a tool it was not given (a server that is off, a made-up name).
    deps.record({ ...base, serverId: '', tool: call.name, status: 'error', isError: true, result: { error: 'the model asked for a tool it was not offered (its server is off or removed, or the name is made up), so nothing ran' } });
    deps.onEvent({ type: 'tool_result', callId: call.id, status: 'invalid', summary: text });
    return errorResult(call.id, text);
  }
  const announce = (status: 'awaiting_approval' | 'running') => {
    deps.underway?.({ ...base, serverId: tool.serverId, tool: tool.name, status: status === 'running' ? 'running' : 'pending' });
    deps.onEvent({ type: 'tool_call', callId: call.id, serverId: tool.serverId, tool: tool.name, arguments: call.input, status });
  };
  const outcome = await deps.calls.call({
    serverId: tool.serverId,
    tool: tool.name,
    arguments: call.input,
    origin: { by: 'model', conversationId },
    callId: call.id,
    signal: context.signal,
    ...(context.step ? { step: context.step } : {}),
    onAsking: () => announce('awaiting_approval'),
    onRunning: () => announce('running'),
    onProgress: (progress) => deps.onEvent({ type: 'tool_progress', callId: call.id, ...progress }),
  });
  return toolResult(call, base, outcome, deps);
}

type CallBase = Omit<FinishedToolCall, 'serverId' | 'tool' | 'status' | 'isError'>;

function toolResult(call: ModelCall, base: CallBase, outcome: CallOutcome, deps: ModelCallDeps): ChatContent {
  if (outcome.kind === 'task') {
    // The turn goes on: the call stays running, its task followed by the host, its result given later.
    const { tool, task } = outcome;
    deps.record({ ...base, ...decided(outcome), startedAt: outcome.startedAt, serverId: tool.serverId, tool: tool.name, status: 'running', isError: false });
    deps.onEvent({ type: 'tool_result', callId: call.id, status: 'task', summary: `runs as a task on ${tool.serverId}` });
    const text =
      `This call runs on as a task on ${tool.serverId} (task ${task.taskId}); its result is not in yet. It will be given to you in this conversation when it comes. ` +
      'Do not call the tool again for it: tell the person it is running, and go on with anything else they ask meanwhile.';
    return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text }] };
  }
  if (outcome.kind === 'done') {
    const { tool, result } = outcome;
    const forModel = toolResultForModel(result, deps.resultBudgetChars, call.id);
    const failed = result.isError === true;
    deps.record({ ...base, ...decided(outcome), startedAt: outcome.startedAt, serverId: tool.serverId, tool: tool.name, status: failed ? 'error' : 'done', isError: failed, result });
    const summary = forModel.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mimeType}]`)).join('\n');
    deps.onEvent({ type: 'tool_result', callId: call.id, status: failed ? 'error' : 'done', summary: summary.slice(0, 500) });
    return { type: 'tool_result', toolUseId: call.id, content: forModel.content, ...(forModel.isError ? { isError: true } : {}) };
  }
  // Every other ending is saved as an error with why, and the model gets a sentence it can act on.
  const ended = endingOf(outcome);
  const tool = outcome.tool;
  deps.record({
    ...base,
    serverId: tool?.serverId ?? '',
    tool: tool?.name ?? call.name,
    ...(outcome.kind === 'refused' ? (outcome.because === 'withheld' ? { decidedBy: 'policy' as const, decision: 'deny' as const } : {}) : decided(outcome)),
    ...('startedAt' in outcome ? { startedAt: outcome.startedAt } : {}),
    status: ended.live === 'invalid' ? 'error' : ended.live,
    isError: true,
    ...(ended.saved !== undefined ? { result: { error: ended.saved } } : {}),
  });
  deps.onEvent({ type: 'tool_result', callId: call.id, status: ended.live, summary: ended.toModel.slice(0, 500) });
  return errorResult(call.id, ended.toModel);
}

/** How the call ended, live; what is saved as its result (a denied call has none: it never ran); what the model is told. */
function endingOf(outcome: Exclude<CallOutcome, { kind: 'done' | 'task' }>): { live: Exclude<LiveOutcome, 'done' | 'task'>; saved?: string; toModel: string } {
  switch (outcome.kind) {
    case 'refused':
      if (outcome.because === 'invalid-arguments') {
        return { live: 'invalid', saved: outcome.message, toModel: `The arguments do not match the tool's input schema: ${outcome.message}. Fix them and call the tool again.` };
      }
      return { live: outcome.because === 'withheld' ? 'denied' : 'invalid', saved: outcome.message, toModel: `This call was not made: ${outcome.message}.` };
    case 'denied':
      return {
        live: 'denied',
        toModel: outcome.unanswered ? `This call was not made: ${outcome.decision.reason}.` : `The person did not allow this call (${outcome.decision.reason}).`,
      };
    case 'cancelled':
      return { live: 'cancelled', saved: 'cancelled by the person', toModel: 'The person cancelled this call.' };
    case 'failed':
      // A protocol or transport failure: the person sees the error; the model gets a summary it can act on.
      return { live: 'error', saved: outcome.error.message, toModel: `The tool call failed: ${outcome.error.message}` };
  }
}

function decided(outcome: { decision: { decidedBy: FinishedToolCall['decidedBy'] & string }; kind: string }): Pick<FinishedToolCall, 'decidedBy' | 'decision'> {
  return { decidedBy: outcome.decision.decidedBy, decision: outcome.kind === 'denied' ? 'deny' : 'allow' };
}

function errorResult(toolUseId: string, text: string): ChatContent {
  return { type: 'tool_result', toolUseId, content: [{ type: 'text', text }], isError: true };
}
