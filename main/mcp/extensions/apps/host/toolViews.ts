// MCP Apps views, on the host's side: reading a tool's view for the window, and the calls a view asks
// for. A view is the server's code running in the person's window, so what it asks goes through the one
// tool-call pipeline, as the model's calls do: consent (the dialog says a view asks), only to the view's
// own server, only to tools declared for views, never to one withheld because it changed. The view's own
// document is never trusted: its HTML only ever runs in the view sandbox.

import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import { cleanViewCsp, requestedViewPermissions, VIEW_MIME_TYPE } from '../contract/viewSandbox.ts';
import type { ToolViewDocument, ViewContextEntry } from '../contract/viewSandbox.ts';
import { MAX_VIEW_CONTEXT_CHARS } from '../contract/viewSandbox.ts';
import { markHidden, sliceMarked } from '../../../../../shared/serverText.ts';
import type { CallOutcome, ToolCalls } from '../../../../chat/turnTools.ts';
import { InvalidArgumentsError } from '../../../../host/invalidArguments.ts';
import { endedOutcome } from '../../../../host/tools/personsCall.ts';

/** The largest view document taken (server-pdf's view, all inlined, is about 4.3 MB). */
export const MAX_VIEW_BYTES = 16 * 1024 * 1024;

/** A view's request the host will not carry out, with the reason a person can read. */
export class ViewRequestRefusedError extends Error {
  readonly code = 'failed';
}

export class ViewConversationNotFoundError extends Error {
  readonly code = 'not_found';
}

export interface ToolViewsDeps {
  /** A tool as the catalog has it now. */
  toolOf(serverId: string, name: string): Promise<ToolSummary | undefined>;
  /** A view's page, read for the view sandbox only: kept as its server wrote it. */
  readViewPage(serverId: string, uri: string): Promise<ReadResourceResult>;
  /** A view belongs to a saved conversation: its calls are asked, audited and marked there. */
  conversationExists(conversationId: string): boolean;
  /** The tool call a view belongs to, as saved in the conversation. */
  callOf(conversationId: string, callId: string): { serverId: string; tool: string } | undefined;
  /** Where what views tell the model is kept. */
  context: { set(conversationId: string, entry: Omit<ViewContextEntry, 'updatedAt'>): void; list(conversationId: string): ViewContextEntry[] };
  /** The one tool-call pipeline. */
  calls: ToolCalls;
}

export interface ViewToolCall {
  conversationId: string;
  /** The tool whose view asks. */
  viewOf: { serverId: string; tool: string };
  tool: string;
  arguments: Record<string, unknown>;
  /** Names the call, so the person can cancel it (cancelCall). */
  callId: string;
  signal?: AbortSignal;
}

export interface ViewContextUpdate {
  conversationId: string;
  /** The tool call whose view speaks. */
  callId: string;
  viewOf: { serverId: string; tool: string };
  /** What the view said, as text (its text blocks and structured content, joined by the window). */
  text: string;
}

export interface ToolViews {
  open(serverId: string, tool: string): Promise<ToolViewDocument>;
  call(request: ViewToolCall): Promise<CallToolResult>;
  /** What a view tells the model (`ui/update-model-context`): cleaned, capped, kept; the kept text comes back. */
  setContext(update: ViewContextUpdate): string;
  context(conversationId: string): ViewContextEntry[];
}

export function createToolViews(deps: ToolViewsDeps): ToolViews {
  // One question per view at a time: a view that polls would otherwise queue a question a second while
  // the person reads the first. Its further calls are refused until that one is answered.
  const asking = new Set<string>();
  return {
    async open(serverId, toolName) {
      const tool = await deps.toolOf(serverId, toolName);
      if (!tool) throw new ViewRequestRefusedError(`${serverId} has no tool "${toolName}" now, so its view cannot be shown`);
      if (!tool.view) throw new ViewRequestRefusedError(`${serverId}'s tool "${toolName}" has no view`);
      const read = await deps.readViewPage(serverId, tool.view.resourceUri);
      // Whether it shows without a click is the window's to decide, from the server's trust and the view trust it mirrors.
      return { serverId, tool: toolName, ...viewDocumentOf(serverId, tool.view.resourceUri, read) };
    },
    async call({ conversationId, viewOf, tool: name, arguments: args, callId, signal }) {
      if (!deps.conversationExists(conversationId)) throw new ViewConversationNotFoundError(`There is no conversation "${conversationId}" for the view of ${viewOf.serverId}/${viewOf.tool} to call a tool in.`);
      const view = `${conversationId}\n${viewOf.serverId}\n${viewOf.tool}`;
      if (asking.has(view)) throw new ViewRequestRefusedError(`The view of ${viewOf.serverId}/${viewOf.tool} asked to call "${name}" while its previous call still waits for your answer, so it was not called.`);
      asking.add(view);
      // The question is open until the call is allowed (it then runs) or ends.
      const answered = () => asking.delete(view);
      let outcome: CallOutcome;
      try {
        // A view speaks to its own server only: a name is looked up there, never elsewhere.
        outcome = await deps.calls.call({ serverId: viewOf.serverId, tool: name, arguments: args, origin: { by: 'view', conversationId, viewOf }, callId, ...(signal ? { signal } : {}), onRunning: answered });
      } finally {
        answered();
      }
      // A view waits for its call's result, also when the call runs as a task.
      return resultForView(await endedOutcome(outcome), viewOf, name);
    },
    setContext({ conversationId, callId, viewOf, text }) {
      if (!deps.conversationExists(conversationId)) throw new ViewConversationNotFoundError(`There is no conversation "${conversationId}" for the view of ${viewOf.serverId}/${viewOf.tool} to tell the model about.`);
      const call = deps.callOf(conversationId, callId);
      // A view speaks for its own call only: never in another call's name, another server's or another conversation's.
      if (!call || call.serverId !== viewOf.serverId || call.tool !== viewOf.tool) {
        throw new ViewRequestRefusedError(`The view of ${viewOf.serverId}/${viewOf.tool} tried to tell the model about a call that is not its own, so nothing was kept.`);
      }
      // A view is its server's code: what it says is neutralised like any server text (the model is told
      // what was taken out; the window shows where).
      const clean = markHidden(text.trim());
      const kept = clean.length > MAX_VIEW_CONTEXT_CHARS ? `${sliceMarked(clean, MAX_VIEW_CONTEXT_CHARS)}\n[… cut at ${MAX_VIEW_CONTEXT_CHARS} characters of ${clean.length}]` : clean;
      deps.context.set(conversationId, { callId, serverId: viewOf.serverId, tool: viewOf.tool, text: kept });
      return kept;
    },
    context: (conversationId) => deps.context.list(conversationId),
  };
}

/** The result a view gets, or the refusal it is told, in words that say a view asked. */
function resultForView(outcome: Exclude<CallOutcome, { kind: 'task' }>, viewOf: { serverId: string; tool: string }, name: string): CallToolResult {
  const asked = `The view of ${viewOf.serverId}/${viewOf.tool} asked to call "${name}"`;
  switch (outcome.kind) {
    case 'done':
      return outcome.result;
    case 'refused':
      if (outcome.because === 'invalid-arguments') throw new InvalidArgumentsError(`${viewOf.serverId}: tool "${name}", called by its view,`, outcome.problems ?? [{ field: '', message: outcome.message }]);
      if (outcome.because === 'unknown-tool') throw new ViewRequestRefusedError(`${asked}, which ${viewOf.serverId} does not offer, so it was not called.`);
      throw new ViewRequestRefusedError(`${asked}, but ${outcome.message}, so it was not called.`);
    case 'denied':
      throw new ViewRequestRefusedError(`${asked}: ${outcome.decision.reason}.`);
    case 'failed':
    case 'cancelled':
      throw outcome.error;
  }
}

/** The view document in a `resources/read` answer: its HTML (text, or base64 `blob`) and what it declares. */
export function viewDocumentOf(serverId: string, uri: string, read: ReadResourceResult): Omit<ToolViewDocument, 'serverId' | 'tool'> {
  const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
  if (!content) throw new ViewRequestRefusedError(`${serverId} sent nothing for the view ${uri}`);
  const mimeType = (content.mimeType ?? '').replace(/\s+/g, '').toLowerCase();
  if (mimeType !== VIEW_MIME_TYPE && mimeType !== 'text/html') {
    throw new ViewRequestRefusedError(`${serverId}'s view ${uri} is not an MCP Apps page (its type is "${content.mimeType ?? 'not given'}", not ${VIEW_MIME_TYPE})`);
  }
  const html = 'text' in content && typeof content.text === 'string' ? content.text : 'blob' in content && typeof content.blob === 'string' ? Buffer.from(content.blob, 'base64').toString('utf8') : undefined;
  if (html === undefined) throw new ViewRequestRefusedError(`${serverId}'s view ${uri} has no page in it`);
  if (Buffer.byteLength(html) > MAX_VIEW_BYTES) throw new ViewRequestRefusedError(`${serverId}'s view ${uri} is larger than ${MAX_VIEW_BYTES / 1024 / 1024} MB, so it is not shown`);
  const ui = uiMetaOf(content._meta);
  const { csp, dropped } = cleanViewCsp(ui['csp']);
  return { resourceUri: uri, html, csp, dropped, permissions: requestedViewPermissions(ui['permissions']), prefersBorder: ui['prefersBorder'] !== false };
}

function uiMetaOf(meta: unknown): Record<string, unknown> {
  if (typeof meta !== 'object' || meta === null) return {};
  const ui = (meta as Record<string, unknown>)['ui'];
  return typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as Record<string, unknown>) : {};
}
