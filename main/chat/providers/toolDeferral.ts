// Deferred tools, for the providers whose APIs take them (Anthropic's `defer_loading` with tool
// references; OpenAI Responses' client tool search). With deferral the list of tools sent stays the same
// from request to request — so the provider's prompt cache keeps the prefix — and the model sees a tool's
// definition only once a tool search's result (a tool_result with `loadsTools`) names it. This module
// reads the conversation for what it loaded, and turns a request into one without deferral for an API
// that turns deferral down (a compatible server, an older API version).

import type { ChatMessage } from '../../../shared/conversation.ts';
import type { ModelRequest, ModelTool } from '../llmTypes.ts';

/** What the conversation loaded of the deferred tools: named by a search's result, or called anyway. */
export function toolsTheHistoryLoads(messages: readonly ChatMessage[]): { referenced: Set<string>; called: Set<string> } {
  const referenced = new Set<string>();
  const called = new Set<string>();
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === 'tool_result') for (const name of block.loadsTools ?? []) referenced.add(name);
      else if (block.type === 'tool_use') called.add(block.name);
    }
  }
  return { referenced, called };
}

/**
 * The tools as sent: a deferred tool the conversation called without a search's result naming it (its
 * earlier turns went to a provider without deferral, say) is sent loaded, since its call is in the history.
 */
export function toolsToSend(request: ModelRequest): ModelTool[] {
  // Without a deferred tool there is nothing to load, and no reason to read the whole history for it.
  if (!defers(request)) return request.tools;
  const { referenced, called } = toolsTheHistoryLoads(request.messages);
  return request.tools.map((tool) => (tool.deferred && called.has(tool.name) && !referenced.has(tool.name) ? withoutFlags(tool) : tool));
}

/** The same request for an API without deferral: the tools the conversation loaded, and no deferred one. */
export function withoutDeferral(request: ModelRequest): ModelRequest {
  const { referenced, called } = toolsTheHistoryLoads(request.messages);
  const tools = request.tools.filter((tool) => !tool.deferred || referenced.has(tool.name) || called.has(tool.name)).map(withoutFlags);
  return { ...request, tools };
}

/** Whether a request has a deferred tool. */
export function defers(request: ModelRequest): boolean {
  return request.tools.some((tool) => tool.deferred === true);
}

function withoutFlags(tool: ModelTool): ModelTool {
  const { deferred: _deferred, searchesTools: _searches, ...plain } = tool;
  return plain;
}

/**
 * Sends a request; when it has deferred tools and the API turns it down as invalid (HTTP 400: a server
 * that copies the API without deferral), sends it once more without them. Says whether it had to.
 */
export async function sendWithDeferralFallback<T>(request: ModelRequest, send: (request: ModelRequest) => Promise<T>, isInvalidRequest: (error: unknown) => boolean): Promise<{ sent: T; refusal?: unknown }> {
  try {
    return { sent: await send(request) };
  } catch (error) {
    if (!defers(request) || !isInvalidRequest(error)) throw error;
    return { sent: await send(withoutDeferral(request)), refusal: error };
  }
}
