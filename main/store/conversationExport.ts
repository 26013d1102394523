// A conversation as a file a person can keep: Markdown to read, JSON to re-import or process. Everything
// in the text came from a model or a server and is untrusted: in Markdown, prose has every `<` that could
// open HTML escaped, and tool arguments and results sit in fences longer than any backtick run they contain,
// so nothing in them can become raw HTML or close its fence. The store holds no secrets, so neither does this.

import { utcTime } from '../../shared/timeFromNow.ts';
import type { ChatContent, Conversation, StoredMessage, ToolCallRecord } from '../../shared/conversation.ts';
import { UNFINISHED_REPLY } from '../../shared/conversation.ts';
import { shownValue } from '../../shared/visibleText.ts';
import { isPersonsMessage, replacedByEdit } from '../../shared/replacedMessages.ts';
import { offeredByNoServer } from '../../shared/toolCallName.ts';

export const EXPORT_FORMAT = 'atrium.conversation';
export const EXPORT_VERSION = 1;

/** Raw HTML (tags, comments, declarations, processing instructions) and autolinks all begin `<` + one of these. */
export function escapeProse(text: string): string {
  return text.replace(/<(?=[A-Za-z/!?])/g, '&lt;');
}

function oneLine(text: string): string {
  return escapeProse(text.replace(/\s+/g, ' ').trim());
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A code span no backtick inside can close. */
export function inlineCode(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const ticks = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A fenced block no line inside can close. */
export function fenced(body: string, info: 'json' | 'text'): string {
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

function json(value: unknown): string {
  return fenced(JSON.stringify(value, null, 2) ?? 'null', 'json');
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}


/** Text blocks of a result (an MCP CallToolResult or a list of content blocks) as text; anything else as JSON. */
function resultBlock(result: unknown): string {
  const blocks = Array.isArray(result) ? result : typeof result === 'object' && result !== null && Array.isArray((result as { content?: unknown }).content) ? (result as { content: unknown[] }).content : undefined;
  const texts = blocks?.map((block) => (typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' && typeof (block as { text?: unknown }).text === 'string' ? (block as { text: string }).text : undefined));
  if (texts !== undefined && texts.length > 0 && texts.every((text) => text !== undefined)) return fenced(texts.join('\n'), 'text');
  return json(result);
}

/**
 * Who decided a call, in the reader's words: the saved values are the consent gate's (consentGate.ts).
 * "policy" is Atrium's own rule (a changed tool held back, a call no one could be asked about), not an
 * organisation's.
 */
const DECIDED_BY: Readonly<Record<string, string>> = {
  person: 'you',
  grant: 'a permission you gave',
  mode: 'your approval setting',
  policy: 'Atrium (no one was asked)',
};

function toolCallSection(call: ToolCallRecord): string {
  const facts = offeredByNoServer(call)
    ? ['no server offered it', `status ${call.status}`]
    : [`server ${inlineCode(call.serverId)}`, `tool ${inlineCode(call.tool)}`, `status ${call.status}`];
  if (call.decision !== undefined) facts.push(`${call.decision === 'allow' ? 'allowed' : 'denied'}${call.decidedBy === undefined ? '' : ` by ${DECIDED_BY[call.decidedBy] ?? oneLine(call.decidedBy)}`}`);
  if (call.durationMs !== undefined) facts.push(`${call.durationMs} ms`);
  const parts = [`**Tool call** ${inlineCode(call.modelName)}: ${facts.join(', ')}`, 'Arguments:', json(call.arguments)];
  if (call.result !== undefined) parts.push(call.isError ? 'Result (error):' : 'Result:', resultBlock(call.result));
  return parts.join('\n\n');
}

function contentSection(block: ChatContent, calls: Map<string, ToolCallRecord>, shown: Set<string>): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text.trim() === '' ? undefined : escapeProse(block.text);
    case 'image':
      return `*[image, ${oneLine(block.mimeType)}]*`;
    case 'tool_use': {
      const call = calls.get(block.id);
      if (call === undefined) return [`**Tool call** ${inlineCode(block.name)}`, 'Arguments:', json(block.input)].join('\n\n');
      shown.add(call.id);
      return toolCallSection(call);
    }
    case 'tool_result': {
      // The record above already showed this result next to its call.
      if (calls.get(block.toolUseId)?.result !== undefined) return undefined;
      const body = block.content.map((item) => (item.type === 'text' ? item.text : `[image, ${item.mimeType}]`)).join('\n');
      return [`**Tool result** for ${inlineCode(block.toolUseId)}${block.isError === true ? ' (error)' : ''}`, fenced(body, 'text')].join('\n\n');
    }
  }
}

/** Why a replaced message is there: the model no longer reads it, since Retry or the person's edit. */
function replacedNote(message: StoredMessage, edited: ReadonlySet<string>): string {
  if (!edited.has(message.id)) return '**Replaced by Retry:** the model was asked again and no longer reads this.';
  if (isPersonsMessage(message)) return '**Edited:** this is what you wrote before you edited it; the model no longer reads it.';
  return '**Replaced by your edit:** this answered the message you edited; the model no longer reads it.';
}

function heading(message: StoredMessage): string {
  const who = message.role === 'assistant' ? 'Assistant' : message.content.every((block) => block.type === 'tool_result') ? 'Tool results' : 'You';
  return `## ${who} · ${utcTime(message.createdAt)}`;
}

export function exportMarkdown(conversation: Conversation, savedMessages: readonly StoredMessage[], savedCalls: readonly ToolCallRecord[]): string {
  // Hidden characters show as the window shows them (invoice⟨U+202E⟩fdp.exe), where they were.
  const messages = shownValue(savedMessages);
  const toolCalls = shownValue(savedCalls);
  const calls = new Map(toolCalls.map((call) => [call.id, call]));
  const shown = new Set<string>();
  const edited = replacedByEdit(messages);
  const sections = [`# ${oneLine(conversation.title) || 'Untitled conversation'}`];
  const facts = [`Started ${utcTime(conversation.createdAt)}`];
  if (conversation.providerId !== undefined || conversation.model !== undefined) facts.push(`model ${inlineCode([conversation.providerId, conversation.model].filter((part) => part !== undefined).join(' / '))}`);
  sections.push(`*${facts.join(', ')}*`);

  for (const message of messages) {
    const parts = message.content.flatMap((block) => contentSection(block, calls, shown) ?? []);
    // Calls recorded for this reply whose tool_use block was never saved (e.g. the process died first).
    for (const call of toolCalls) {
      if (call.messageId !== message.id || shown.has(call.id)) continue;
      parts.push(toolCallSection(call));
      shown.add(call.id);
    }
    if (message.status === 'streaming' || message.status === 'incomplete') parts.push(quote(`**${UNFINISHED_REPLY}.**`));
    if (message.status === 'error') parts.push(quote(`**Error:** ${escapeProse(message.error ?? 'the reply failed')}`));
    if (message.replacedAt !== undefined && parts.length > 0) parts.push(quote(replacedNote(message, edited)));
    if (parts.length === 0) continue;
    sections.push(heading(message), ...parts);
  }
  return `${sections.join('\n\n')}\n`;
}

export interface ConversationExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  conversation: Conversation;
  messages: StoredMessage[];
  toolCalls: ToolCallRecord[];
}

/** Everything the store holds about the conversation, images included. */
export function exportJson(conversation: Conversation, messages: readonly StoredMessage[], toolCalls: readonly ToolCallRecord[]): string {
  const document: ConversationExport = { format: EXPORT_FORMAT, version: EXPORT_VERSION, conversation, messages: [...messages], toolCalls: [...toolCalls] };
  return `${JSON.stringify(document, null, 2)}\n`;
}
