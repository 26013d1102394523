// What the agent loop needs of tools, declared here and implemented by the host (main/host/tools/): the
// tools a turn offers (the tool catalog) and the one pipeline every tool call goes through, whoever makes
// it. The loop only maps the model's words onto these: it never checks a pin, an argument or a grant.

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ChatContent } from '../../shared/conversation.ts';
import type { LoadedHow, LoadedToolView, ProgressUpdate, ToolSummary } from '../../shared/domain.ts';
import type { FieldProblem } from '../../shared/fieldProblems.ts';
import type { ModelTool } from './llmTypes.ts';

/** The tools of one turn as the catalog plans them. */
export interface TurnToolPlan {
  /** What the model may call, in a stable order (by model-facing name). */
  offered: ToolSummary[];
  /** Tools kept from the model, with why: a changed one is said in the chat, for the person to review. */
  withheld: { tool: ToolSummary; why: string }[];
  /** Set when the model searches for tools instead of getting them all, with why. */
  searching?: string;
  /** While it searches: what it has without searching, each with how (always, by hand, found or called before). */
  loaded: LoadedToolView[];
}

/** How much context the model has: as its server reports, or the usual for its kind of provider. */
export interface ModelContext {
  tokens: number;
  reported: boolean;
}

/** The tool catalog, as a turn uses it. */
export interface TurnTools {
  /** The tools of a turn in a conversation (a new one without it), for a model with this much context. */
  plan(conversationId: string | undefined, context?: ModelContext): TurnToolPlan;
  /** The best matches among the offered tools, best first. */
  search(query: string, limit: number): ToolSummary[];
  /** The model found (with these words) or called these tools: they stay loaded in the conversation. */
  noteLoaded(conversationId: string, modelNames: readonly string[], how?: LoadedHow): void;
}

/** Who asks for a call: the model in a conversation, a tool's view (MCP Apps) in one, or the person directly. */
export type CallOrigin =
  | { by: 'model'; conversationId: string }
  | { by: 'view'; conversationId: string; viewOf: { serverId: string; tool: string } }
  | { by: 'person' };

export interface ToolCallRequest {
  serverId: string;
  tool: string;
  arguments: Record<string, unknown>;
  origin: CallOrigin;
  /** Names the call for cancelling it (`cancelCall`) and in the audit log. */
  callId: string;
  /**
   * The model asked for this call in one step with others: the step's id and its calls still to come, so
   * that the person, when asked, can answer them together.
   */
  step?: { id: string; later: readonly StepCall[] };
  /** Ends the call (the person stopped the turn); the call can also be cancelled on its own by its id. */
  signal?: AbortSignal;
  onProgress?(progress: Omit<ProgressUpdate, 'serverId' | 'callId'>): void;
  /** The call waits for the person's answer. */
  onAsking?(): void;
  /** The call was allowed and goes to its server now. */
  onRunning?(): void;
}

/** A call the model asked for, as the pipeline takes it. */
export interface StepCall {
  callId: string;
  serverId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** How a call was decided: by whom, and the reason in words. */
export interface CallDecision {
  decidedBy: 'person' | 'policy' | 'grant' | 'mode';
  reason: string;
}

/** One argument of a call that does not fit its tool: `field` is its key (a dotted path for a nested one), `message` a sentence naming it. */
export interface ArgumentProblem extends FieldProblem {
  /** What the tool's schema says the argument is, where it says. */
  description?: string;
}

/** Why a call was refused before anyone was asked: it never reached the server. */
export type RefusedBecause = 'unknown-server' | 'server-unavailable' | 'unknown-tool' | 'withheld' | 'invalid-arguments';

/** How a call ended: one value for every way, so each caller says it in its own words. */
export type CallOutcome =
  | { kind: 'done'; tool: ToolSummary; decision: CallDecision; startedAt: number; result: CallToolResult }
  /** `error` is the server's own, where the refusal is the server's state (gone, not ready). */
  /** `problems`: for arguments that do not fit, each argument's. */
  | { kind: 'refused'; because: RefusedBecause; message: string; problems?: ArgumentProblem[]; tool?: ToolSummary; error?: Error }
  /** Not allowed: by the person, a grant or the policy; `unanswered` when nobody could be asked. */
  | { kind: 'denied'; tool: ToolSummary; decision: CallDecision; unanswered?: true }
  | { kind: 'failed'; tool: ToolSummary; decision: CallDecision; startedAt: number; error: Error }
  | { kind: 'cancelled'; tool: ToolSummary; decision: CallDecision; startedAt: number; error: Error }
  /** The server runs it on as a task: the caller goes on (a turn ends), its end comes later (`task.ended`). */
  | { kind: 'task'; tool: ToolSummary; decision: CallDecision; startedAt: number; task: CallTask };

/** A call its server runs on as a task (MCP Tasks): followed by the host to its end, across restarts where the server keeps it. */
export interface CallTask {
  /** Names the task in the host (its card, the Tasks panel, Cancel). */
  key: string;
  serverId: string;
  taskId: string;
  /** False for a local (stdio) server's task, which ends with the server's process. */
  outlivesAtrium: boolean;
  /** How it ended, once the pipeline closed it (what the conversation took in, the audit log). */
  ended: Promise<TaskEnding>;
}

/** How a task ended: its result, a failure (its server's, or the task was lost), or cancelled. */
/**
 * How a call's task ended. A failed or cancelled one has `error`, which names the server and the tool (for
 * a place that says nothing else of it, the terminal), and `reason`, the words alone (for its card and the
 * note that already name them).
 */
export type TaskEnding = { kind: 'done'; result: CallToolResult } | { kind: 'failed'; error: Error; reason: string } | { kind: 'cancelled'; error: Error; reason: string };

/** The one tool-call pipeline. */
export interface ToolCalls {
  call(request: ToolCallRequest): Promise<CallOutcome>;
}

/** A call of one of Atrium's own tools an extension adds, as the agent loop hands it over. */
export interface HostToolCall {
  conversationId: string;
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** The turn's: stopping the turn ends the call (and withdraws a question it put to the person). */
  signal: AbortSignal;
  /** Says something in the conversation while the turn runs. */
  notice(message: string): void;
}

/**
 * Tools Atrium itself gives the model for an extension, beside the servers' (Skills: use one, read its
 * files). No server's tool runs for them, so they do not go through the tool-call pipeline; what they
 * ask of the person is the extension's own question.
 */
export interface HostTools {
  /** Their definitions for a turn of this conversation (none when the extension has nothing to offer), once what it offers is known. */
  definitions(conversationId: string, turn: { searching: boolean }): Promise<ModelTool[]>;
  /** What a tool search also finds, in words for the model; undefined when nothing. */
  found?(query: string, limit: number): string | undefined;
  /** Runs one of its tools, resolving with the tool result for the model; undefined when `call` is not one of its own. */
  run(call: HostToolCall): Promise<ChatContent> | undefined;
}
