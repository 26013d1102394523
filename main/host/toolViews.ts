// MCP Apps views, on the host's side: reading a tool's view for the window, and the calls a view asks
// for. A view is the server's code running in the person's window, so what it asks goes through the same
// consent as the model: a `tools/call` from a view goes to the consent gate (the dialog says a view asks),
// only to the view's own server, only to tools declared for views, and never to one withheld because it
// changed. The view's own document is never trusted: its HTML only ever runs in the view sandbox.

import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { ToolSummary } from '../../shared/domain.ts';
import { cleanViewCsp, requestedViewPermissions, VIEW_MIME_TYPE } from '../../shared/viewSandbox.ts';
import type { ToolViewDocument, ViewContextEntry } from '../../shared/viewSandbox.ts';
import { MAX_VIEW_CONTEXT_CHARS } from '../../shared/viewSandbox.ts';
import { neutraliseProse } from '../../shared/serverText.ts';
import type { ToolGate } from '../chat/agentLoop.ts';
import { toolArgumentsProblem, InvalidToolArgumentsError } from '../mcp/toolArguments.ts';

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
  /** Every ready server's tools as the model would see them, checked against their pins. */
  tools(): ToolSummary[];
  readResource(serverId: string, uri: string): Promise<ReadResourceResult>;
  /** A view belongs to a saved conversation: its calls are asked, audited and marked there. */
  conversationExists(conversationId: string): boolean;
  /** The tool call a view belongs to, as saved in the conversation. */
  callOf(conversationId: string, callId: string): { serverId: string; tool: string } | undefined;
  /** Where what views tell the model is kept. */
  context: { set(conversationId: string, entry: Omit<ViewContextEntry, 'updatedAt'>): void; list(conversationId: string): ViewContextEntry[] };
  gate: ToolGate;
  /** Runs an approved call on the server (the hub). */
  callTool(serverId: string, tool: string, args: Record<string, unknown>, options: { signal: AbortSignal; conversationId: string }): Promise<CallToolResult>;
  validator: jsonSchemaValidator;
}

export interface ViewToolCall {
  conversationId: string;
  /** The tool whose view asks. */
  viewOf: { serverId: string; tool: string };
  tool: string;
  arguments: Record<string, unknown>;
  signal: AbortSignal;
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
  const toolOf = (serverId: string, name: string) => deps.tools().find((t) => t.serverId === serverId && t.name === name);
  return {
    async open(serverId, toolName) {
      const tool = toolOf(serverId, toolName);
      if (!tool) throw new ViewRequestRefusedError(`${serverId} has no tool "${toolName}" now, so its view cannot be shown`);
      if (!tool.view) throw new ViewRequestRefusedError(`${serverId}'s tool "${toolName}" has no view`);
      const read = await deps.readResource(serverId, tool.view.resourceUri);
      // Whether it shows without a click is the window's to decide, from the server's trust and the view trust it mirrors.
      return { serverId, tool: toolName, ...viewDocumentOf(serverId, tool.view.resourceUri, read) };
    },
    async call({ conversationId, viewOf, tool: name, arguments: args, signal }) {
      if (!deps.conversationExists(conversationId)) throw new ViewConversationNotFoundError(`There is no conversation "${conversationId}" for the view of ${viewOf.serverId}/${viewOf.tool} to call a tool in.`);
      const refuse = (why: string) => new ViewRequestRefusedError(`The view of ${viewOf.serverId}/${viewOf.tool} asked to call "${name}", which ${why}, so it was not called.`);
      const tool = toolOf(viewOf.serverId, name);
      // A view speaks to its own server only: a name is looked up there, never elsewhere.
      if (!tool) throw refuse(`${viewOf.serverId} does not offer`);
      if (tool.visibility !== undefined && !tool.visibility.includes('app')) throw refuse(`${viewOf.serverId} declares for the model only, not for its views`);
      if (tool.changed) throw refuse(`${viewOf.serverId} changed since it was approved (review it on the server's Tools tab)`);
      if (tool.enabled === false) throw refuse('is turned off');
      const declared = tool.inputSchema;
      const problem = toolArgumentsProblem(deps.validator, declared, args);
      if (problem !== undefined) throw new InvalidToolArgumentsError(`${viewOf.serverId}: tool "${name}": the view's arguments do not fit its input schema: ${problem}`);
      const view = `${conversationId}\n${viewOf.serverId}\n${viewOf.tool}`;
      if (asking.has(view)) throw new ViewRequestRefusedError(`The view of ${viewOf.serverId}/${viewOf.tool} asked to call "${name}" while its previous call still waits for your answer, so it was not called.`);
      asking.add(view);
      let decision;
      try {
        decision = await deps.gate.check({ tool, arguments: args, conversationId, signal, fromView: viewOf });
      } finally {
        asking.delete(view);
      }
      if (!decision.allowed) throw new ViewRequestRefusedError(`The view of ${viewOf.serverId}/${viewOf.tool} asked to call "${name}": ${decision.reason}.`);
      const result = await deps.callTool(viewOf.serverId, name, args, { signal, conversationId });
      // What a view shows the person can lead them on, as a model's result can lead the model.
      deps.gate.tookIn(tool, conversationId);
      return result;
    },
    setContext({ conversationId, callId, viewOf, text }) {
      if (!deps.conversationExists(conversationId)) throw new ViewConversationNotFoundError(`There is no conversation "${conversationId}" for the view of ${viewOf.serverId}/${viewOf.tool} to tell the model about.`);
      const call = deps.callOf(conversationId, callId);
      // A view speaks for its own call only: never in another call's name, another server's or another conversation's.
      if (!call || call.serverId !== viewOf.serverId || call.tool !== viewOf.tool) {
        throw new ViewRequestRefusedError(`The view of ${viewOf.serverId}/${viewOf.tool} tried to tell the model about a call that is not its own, so nothing was kept.`);
      }
      // The model is told what was taken out, as with any server text it reads.
      const clean = neutraliseProse(text.trim());
      const kept = clean.length > MAX_VIEW_CONTEXT_CHARS ? `${clean.slice(0, MAX_VIEW_CONTEXT_CHARS)}\n[… cut at ${MAX_VIEW_CONTEXT_CHARS} characters of ${clean.length}]` : clean;
      deps.context.set(conversationId, { callId, serverId: viewOf.serverId, tool: viewOf.tool, text: kept });
      return kept;
    },
    context: (conversationId) => deps.context.list(conversationId),
  };
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
