// Human-readable output of the CLI. Everything a server sent is untrusted: control characters are made
// visible so a hostile tool description cannot rewrite the terminal (ANSI escapes, bidi overrides).

import type { JsonObject } from '../../shared/contract.ts';
import type { PromptSummary, ResourceSummary, ResourceTemplateSummary, SandboxSummary, ServerAuthView, ServerSnapshot, SignOutReport, ToolChangeView, ToolSearchHit, ToolSummary } from '../../shared/domain.ts';
import { shellWord, statusLabel } from '../../shared/domain.ts';
import { counted } from '../../shared/counted.ts';
import { KEPT_FROM } from '../mcp/extensions/sandbox/contract/sandboxContract.ts';
import { describeBlock } from '../../shared/installs.ts';
import { expiryText, utcTime } from '../../shared/timeFromNow.ts';
import { definitionChanges } from '../../shared/toolDefinitionDiff.ts';
import { visibleText } from '../../shared/visibleText.ts';
import { base64ByteCount, blobAsText } from '../../shared/blobText.ts';

export function visible(text: string): string {
  return visibleText(text);
}

export function formatServers(servers: ServerSnapshot[], now: number = Date.now(), sandboxes: readonly SandboxSummary[] = []): string {
  if (servers.length === 0) return 'No servers configured.';
  const sandboxOf = (id: string) => sandboxes.find((summary) => summary.serverId === id);
  return servers
    .map((s) => {
      // The server's name begins its line already: its error is not made to say it twice.
      const status = s.status.kind === 'error' ? `Error: ${withoutServer(s.id, s.status.message)}` : s.status.kind === 'blocked' ? `Blocked by policy: ${describeBlock(s.status.block)}` : statusLabel(s.status);
      const counts = [counted(s.counts.tools, 'tool'), counted(s.counts.resources, 'resource'), counted(s.counts.resourceTemplates, 'template'), counted(s.counts.prompts, 'prompt')].join(', ');
      const version = s.protocolVersion ? ` · protocol ${s.protocolVersion}` : '';
      const auth = s.auth ? `\n    ${formatAuth(s.id, s.auth, now)}` : '';
      const sandbox = sandboxOf(s.id);
      const sandboxLines = sandbox ? `\n${formatSandbox(sandbox).map((line) => `    ${line}`).join('\n')}` : '';
      return `${visible(s.id)}  [${s.transport}]  ${visible(status)}\n    ${counts}${version}\n    ${visible(s.target)}${auth}${sandboxLines}`;
    })
    .join('\n');
}

/** A local server's sandbox: whether it runs in one and why, what it can touch, what to install, what was blocked. */
export function formatSandbox(summary: SandboxSummary): string[] {
  return [
    summary.reason,
    ...summary.touches.map((line) => `  ${line}`),
    ...(summary.install ? [`  ${summary.install}`, '  Or run it without the sandbox, knowing it then reaches all your files: "sandbox": false in its entry of servers.json.'] : []),
    // What the sandbox blocked is the server's doing: its paths and hosts are untrusted text.
    ...summary.blocked.slice(0, 5).map((entry) => `  blocked ${entry.kind === 'host' ? 'a connection to' : `a ${entry.kind} of`} ${visible(entry.target)}${entry.count > 1 ? ` (${entry.count} times)` : ''}`),
  ];
}

/**
 * What a server's sandbox kept from it during a failed call, one line each, with how the person lets it:
 * the entry in servers.json, or the window's button. Atrium's own data folder is never offered.
 */
export function formatBlockedInCall(serverId: string, blocked: readonly SandboxSummary['blocked'][number][]): string[] {
  return blocked.map((entry) => {
    const said = `atrium: ${visible(serverId)}: its sandbox kept it from ${KEPT_FROM[entry.kind]} ${visible(entry.target)}`;
    if (entry.allow === undefined) return `${said} (Atrium's data folder stays out of every server's reach)`;
    const allowed = visible(JSON.stringify([entry.allow]));
    const setting = entry.kind === 'host' ? `"network": {"allowedDomains": ${allowed}}` : `"filesystem": {"${entry.kind === 'write' ? 'allowWrite' : 'allowRead'}": ${allowed}}`;
    // A wider sandbox is a changed launch: it is approved again before the server starts with it.
    return `${said}. To let it: "sandbox": {${setting}} in its entry of servers.json, then atrium servers approve ${shellWord(serverId)}; or Allow for this server on its card in the window.`;
  });
}

/** A remote server's sign-in in one line: who and until when, or why not and how to sign in. */
export function formatAuth(serverId: string, auth: ServerAuthView, now: number): string {
  const error = auth.error ? visible(withoutServer(serverId, auth.error)) : undefined;
  switch (auth.state) {
    case 'signed-in': {
      const parts = [auth.subject ? `signed in as ${visible(auth.subject)}` : 'signed in'];
      if (auth.expiresAt !== undefined) parts.push(expiryText(auth.expiresAt, now));
      if (error) parts.push(error);
      return parts.join(' · ');
    }
    case 'signed-out':
      return `not signed in${error ? `: ${error}` : ''} — atrium sign-in ${visible(serverId)}`;
    case 'signing-in':
      return 'signing in';
    case 'failed':
      // The reason is a sentence about the sign-in already ("sign-in failed: …", "the authorization server refused: …").
      return error ?? 'sign-in failed';
  }
}

/** What `atrium sign-in` prints once the browser came back: "Signed in to S as who (scopes …, expires in …)". */
export function formatSignedIn(serverId: string, auth: ServerAuthView | undefined, now: number): string {
  const who = auth?.subject ? ` as ${visible(auth.subject)}` : '';
  const details = [
    ...(auth?.scopes?.length ? [`scopes ${visible(auth.scopes.join(' '))}`] : []),
    ...(auth?.expiresAt !== undefined ? [expiryText(auth.expiresAt, now)] : []),
  ];
  return `Signed in to ${visible(serverId)}${who}${details.length ? ` (${details.join(', ')})` : ''}`;
}

/** What `atrium sign-out` prints: whether the authorization server revoked the tokens, and that they are forgotten. */
export function formatSignedOut(serverId: string, report: SignOutReport): string {
  const id = visible(serverId);
  if (!report.hadTokens) return `Not signed in to ${id}: there was nothing to sign out of.`;
  if (!report.revocationOffered) {
    return `Signed out of ${id}: Atrium forgot its tokens. Its authorization server offers no way to revoke them, so the last access token works until it expires.`;
  }
  if (report.problems.length > 0) {
    return `Signed out of ${id}: Atrium forgot its tokens, but ${report.problems.map(visible).join('; ')}${report.revoked.length ? ` (revoked: ${report.revoked.join(', ')})` : ''}.`;
  }
  return `Signed out of ${id}: its authorization server revoked the ${report.revoked.join(' and the ')}, and Atrium forgot them.`;
}

/** A sign-in's sentences name their server first; under the server's own name that is said already. */
function withoutServer(serverId: string, text: string): string {
  return text.startsWith(`${serverId}: `) ? text.slice(serverId.length + 2) : text;
}

export function formatTools(tools: ToolSummary[]): string {
  if (tools.length === 0) return 'No tools.';
  return tools
    .map((t) => {
      const hints = t.annotations ? Object.entries(t.annotations).filter(([k, v]) => k.endsWith('Hint') && v === true).map(([k]) => k.replace('Hint', '')) : [];
      const head = `${visible(t.serverId)} / ${visible(t.name)}  (model name: ${t.modelName})${hints.length ? `  [${hints.join(', ')}]` : ''}`;
      const app = [
        // Off for the model only: the person may still call it here (atrium call), as in the window's Tools tab.
        ...(t.enabled ? [] : [`    off: not offered to the model (turn it on in the window's Tools tab, or remove it from "disabledTools" in servers.json)`]),
        ...(t.view ? [`    view: ${visible(t.view.resourceUri)}`] : []),
        ...(t.visibility && !t.visibility.includes('model') ? ['    for its view only: not offered to the model'] : []),
        ...(t.alwaysLoaded ? ['    always loaded: sent to the model even when it searches for the other tools'] : []),
      ];
      const described = [head, ...(t.description ? [`    ${visible(oneLine(t.description))}`] : []), ...app].join('\n');
      return t.changed ? `${described}\n${formatToolChange(t, t.changed)}` : described;
    })
    .join('\n');
}

/** The tools the model's search finds, ranked: its model-facing name, where it comes from, its score. */
export function formatSearchHits(query: string, hits: readonly ToolSearchHit[]): string {
  if (hits.length === 0) return `No tool matches "${visible(query)}".`;
  return hits
    .map((hit, index) => {
      const head = `${index + 1}. ${hit.tool.modelName}  (${visible(hit.tool.serverId)} / ${visible(hit.tool.name)})  score ${hit.score.toFixed(2)}`;
      return hit.tool.description ? `${head}\n    ${visible(oneLine(hit.tool.description))}` : head;
    })
    .join('\n');
}

/** MCP Apps: a result that has a view (an interactive page of its server); the terminal names it and how to read it. */
export function viewNote(serverId: string, resourceUri: string): string {
  return `This result has a view, ${visible(resourceUri)}; to read its page: atrium read ${shellWord(visible(serverId))} ${shellWord(visible(resourceUri))}`;
}

/** What changed in a tool since it was approved, line by line, and the command that approves it. */
function formatToolChange(tool: ToolSummary, change: ToolChangeView): string {
  const { changed: _change, ...now } = tool;
  const fields = definitionChanges(change.previous, now).map(
    (field) => `      ${field.label}:\n${field.lines.filter((line) => line.kind !== 'same').map((line) => `        ${line.kind === 'added' ? '+' : '-'} ${visible(line.text)}`).join('\n')}`,
  );
  return [
    `    ⚠ changed since it was approved (${utcTime(change.pinnedAt)}): withheld from the model, and calls to it are refused`,
    ...fields,
    `    to approve the new version: atrium tools approve ${visible(tool.serverId)} ${visible(tool.name)}`,
  ].join('\n');
}

export function formatResources(resources: ResourceSummary[]): string {
  if (resources.length === 0) return 'No resources.';
  return resources.map((r) => `${visible(r.serverId)}  ${visible(r.uri)}  ${visible(r.name)}${r.mimeType ? `  (${visible(r.mimeType)})` : ''}`).join('\n');
}

export function formatTemplates(templates: ResourceTemplateSummary[]): string {
  if (templates.length === 0) return 'No resource templates.';
  return templates.map((t) => `${visible(t.serverId)}  ${visible(t.uriTemplate)}  ${visible(t.name)}`).join('\n');
}

export function formatPrompts(prompts: PromptSummary[]): string {
  if (prompts.length === 0) return 'No prompts.';
  return prompts
    .map((p) => {
      const args = p.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' ');
      return `${visible(p.serverId)} / ${visible(p.name)}${args ? ` ${visible(args)}` : ''}${p.description ? `\n    ${visible(oneLine(p.description))}` : ''}`;
    })
    .join('\n');
}

/** A tool result's content blocks as text; binary content is described, not dumped. */
export function formatContent(result: JsonObject): string {
  const parts: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  for (const block of content) parts.push(formatBlock(block));
  if (result.structuredContent !== undefined) parts.push(`structured content:\n${visible(JSON.stringify(result.structuredContent, null, 2))}`);
  return parts.join('\n');
}

/**
 * A resource's contents for the terminal: text (and bytes the server says are text) as it is, marked;
 * other bytes described, with `toSave` (how to get them) when given.
 */
export function formatResourceContents(result: JsonObject, toSave?: string): string {
  const contents = resourceContents(result);
  return contents
    .map((c) => {
      const text = textOfContent(c);
      if (text !== undefined) return visible(text);
      // The one content, and bytes that are not text: what --output is for.
      const saving = toSave !== undefined && contents.length === 1 ? `; to save it: ${visible(toSave)}` : '';
      return `[binary ${visible(String(c.mimeType ?? 'data'))}, ${base64Bytes(c.blob)} bytes: ${visible(String(c.uri))}${saving}]`;
    })
    .join('\n');
}

/** A content's text, or its bytes read as the text the server says they are; undefined for other bytes. */
function textOfContent(content: Record<string, unknown>): string | undefined {
  if (typeof content.text === 'string') return content.text;
  return typeof content.blob === 'string' ? blobAsText(content.blob, typeof content.mimeType === 'string' ? content.mimeType : undefined) : undefined;
}

/** The bytes of a resource read that is one content, text (as UTF-8) or binary; a count of its contents otherwise. */
export function oneContentBytes(result: JsonObject): Uint8Array | number {
  const contents = resourceContents(result);
  const [only] = contents;
  if (contents.length !== 1 || only === undefined) return contents.length;
  return typeof only.text === 'string' ? Buffer.from(only.text, 'utf8') : Buffer.from(typeof only.blob === 'string' ? only.blob : '', 'base64');
}

function resourceContents(result: JsonObject): Record<string, unknown>[] {
  return Array.isArray(result.contents) ? (result.contents as Record<string, unknown>[]) : [];
}

export function formatPromptMessages(result: JsonObject): string {
  const messages = Array.isArray(result.messages) ? (result.messages as { role?: unknown; content?: Record<string, unknown> }[]) : [];
  return messages.map((m) => `${String(m.role)}: ${m.content ? formatBlock(m.content) : ''}`).join('\n');
}

function formatBlock(block: Record<string, unknown>): string {
  switch (block.type) {
    case 'text':
      return visible(String(block.text ?? ''));
    case 'image':
    case 'audio':
      return `[${block.type} ${visible(String(block.mimeType ?? ''))}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${visible(String(block.uri ?? ''))}${block.name ? ` (${visible(String(block.name))})` : ''}]`;
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const text = textOfContent(resource);
      return text !== undefined ? `[embedded ${visible(String(resource.uri ?? ''))}]\n${visible(text)}` : `[embedded ${visible(String(resource.uri ?? ''))}, ${base64Bytes(resource.blob)} bytes]`;
    }
    default:
      return `[${visible(String(block.type))} content]`;
  }
}

function base64Bytes(data: unknown): number {
  return typeof data === 'string' ? base64ByteCount(data) : 0;
}

/** One line of at most 160 characters, cut after the hidden characters are marked (never inside a mark's source). */
export function oneLine(text: string): string {
  const line = visibleText(text).replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}
