// What happens during one turn of a conversation, as it happens: the events a front end follows.

/** 'error': the turn failed (its message says why); it is over all the same. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'cancelled' | 'error' | 'other';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** 'task': the call runs on as a task on its server (MCP Tasks); its end comes after the turn. */
export type ToolCallOutcome = 'done' | 'error' | 'denied' | 'invalid' | 'cancelled' | 'task';

/** What happens during one turn of a conversation, as it happens. */
export type ChatTurnEvent =
  | { type: 'assistant_started'; messageId: string }
  /** `at`: how many characters of text the reply had before this delta, so a window that joins midway (a reload) puts it in place. */
  | { type: 'text'; messageId: string; delta: string; at: number }
  /** An image the model produced; `data` is base64. */
  | { type: 'image'; messageId: string; mimeType: string; data: string }
  /**
   * A call the model is still writing, with its arguments as far as they go: sent for tools with a view
   * (MCP Apps), which may draw them as they come. `tool_call` follows with the whole call.
   */
  | { type: 'tool_input'; messageId: string; callId: string; serverId: string; tool: string; arguments: Record<string, unknown> }
  /**
   * A call of the model's step: `waiting` from the step's start until its turn comes (the calls of a step
   * run one after another, so that what one brings in is weighed before the next is decided), then asked,
   * then running. Every call of the step is said waiting first, in the order the model wrote them.
   */
  | { type: 'tool_call'; callId: string; serverId: string; tool: string; arguments: Record<string, unknown>; status: 'waiting' | 'awaiting_approval' | 'running' }
  | { type: 'tool_progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'tool_result'; callId: string; status: ToolCallOutcome; summary: string }
  /**
   * What the host notes during a turn, in words. `withheld`: a tool the model was not given because it
   * changed since it was approved; that note is saved with the conversation (its `notes`).
   */
  | { type: 'notice'; message: string; withheld?: { serverId: string; tool: string } }
  | { type: 'done'; stopReason: StopReason; usage: TokenUsage };
