// Servers from a block of JSON a person pasted (or a file they chose): what servers' READMEs and other
// hosts give. Four shapes are read: a whole config (`{"mcpServers": …}`, VS Code's `{"servers": …}`), a
// table of named entries (`{"name": {"command": …}}`), one named entry cut out of a table
// (`"name": {"command": …}`, a trailing comma included), and a bare entry (`{"command": …}`), which is
// named after what it runs. Text that is not JSON gets the line and column, in plain words.

import { basename } from 'node:path';
import type { ParsedServers } from './serverConfig.ts';
import { parseServerEntry, parseServersDocument } from './serverConfig.ts';

export type PastedServers = ParsedServers | { error: string };

const shapes = 'a config with "mcpServers" or "servers", a named entry like "name": {"command": …}, or a single {"command": …} or {"url": …}';

export function parsePastedServers(pasted: string): PastedServers {
  const text = withoutCodeFence(pasted);
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'Paste a server’s JSON first, or choose a file.' };
  const whole = parseJson(text);
  if ('value' in whole) return serversIn(whole.value);
  // `"name": {…}` is a table's inside: read it as the table it was cut from.
  if (trimmed.startsWith('"')) {
    const start = text.indexOf('"');
    const wrapped = parseJson(`{${trimmed.replace(/,\s*$/, '')}}`);
    if ('value' in wrapped) return serversIn(wrapped.value);
    return { error: describeJsonError(text, wrapped.message, wrapped.position === undefined ? undefined : wrapped.position - 1 + start) };
  }
  return { error: describeJsonError(text, whole.message, whole.position) };
}

/** A README's block copied with its Markdown fence (```json … ```): the fence is not part of the config. */
function withoutCodeFence(text: string): string {
  const fenced = /^\s*```[\w-]*[^\S\n]*\n([\s\S]*?)\n[^\S\n]*```\s*$/.exec(text);
  return fenced?.[1] ?? text;
}

function serversIn(json: unknown): PastedServers {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: `This is JSON, but not a server: paste ${shapes}.` };
  const doc = json as Record<string, unknown>;
  if ('mcpServers' in doc || 'servers' in doc || 'mcp' in doc) {
    const parsed = parseServersDocument(doc, 'the pasted text');
    return parsed.servers.length === 0 && parsed.problems.length === 0 ? { error: 'The config names no server.' } : parsed;
  }
  if (typeof doc.command === 'string' || typeof doc.url === 'string') {
    const result = parseServerEntry(nameFor(doc), doc);
    return 'problem' in result ? { servers: [], problems: [result.problem] } : { servers: [result.server], problems: [] };
  }
  const entries = Object.entries(doc);
  if (entries.length > 0 && entries.every(([, entry]) => typeof entry === 'object' && entry !== null && !Array.isArray(entry))) {
    return parseServersDocument({ mcpServers: doc }, 'the pasted text');
  }
  return { error: `No server found in this JSON: paste ${shapes}.` };
}

/**
 * A name for an entry that came without one: the package it runs (`npx -y @scope/server-x@1` gives
 * "server-x"), else the program, else the address's host.
 */
function nameFor(entry: Record<string, unknown>): string {
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string' && !a.startsWith('-')) : [];
  const launchers = new Set(['npx', 'uvx', 'bunx', 'pnpm', 'dlx', 'pipx', 'run', 'docker', 'deno']);
  const program = typeof entry.command === 'string' ? basename(entry.command).replace(/\.(exe|cmd|bat)$/i, '') : '';
  const packageArg = launchers.has(program) ? args.find((a) => !launchers.has(a) && !a.includes('=')) : undefined;
  const raw = packageArg
    ? packageArg.replace(/^@[^/]+\//, '').replace(/@[^@/]*$/, '').split(/[/:]/).filter(Boolean).pop() ?? program
    : program || (typeof entry.url === 'string' ? hostOf(entry.url) : '');
  const name = raw.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return name || 'server';
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'server';
  }
}

function parseJson(text: string): { value: unknown } | { message: string; position: number | undefined } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    return { message, position: at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : whereParsingFails(text) };
  }
}

/**
 * Where a text stops being the start of some JSON, for the errors JSON.parse gives without a position
 * ("Unexpected token 'x'"): the first prefix that fails before its own end. Only for texts of a pasted
 * block's size, as it parses every prefix.
 */
function whereParsingFails(text: string): number | undefined {
  if (text.length > 20_000) return undefined;
  for (let end = 1; end <= text.length; end++) {
    try {
      JSON.parse(text.slice(0, end));
    } catch (error) {
      const message = (error as Error).message;
      const at = /at position (\d+)/.exec(message);
      const failsBeforeEnd = at ? Number(at[1]) < end : !/end of JSON input/.test(message);
      if (failsBeforeEnd) return at ? Number(at[1]) : end - 1;
    }
  }
  return undefined;
}

// JSON.parse's reasons, said the way a person fixing the text would say them.
const reasons: [RegExp, string][] = [
  [/Unterminated string/, 'a text in quotes is not closed: a " is missing.'],
  [/Expected double-quoted property name/, 'a name in double quotes was expected here. Is there a comma before a closing } or ], or a name in single quotes?'],
  [/Expected property name or '}'/, 'a name in double quotes was expected here (names need "double quotes").'],
  [/Expected ':' after property name/, 'a colon (:) was expected after the name.'],
  [/Expected ',' or '}' after property value/, 'a comma or a closing } was expected here. Is a comma missing before it?'],
  [/Expected ',' or ']' after array element/, 'a comma or a closing ] was expected here. Is a comma missing before it?'],
  [/Bad control character in string literal/, 'a line break or tab inside quotes must be written as \\n or \\t.'],
  [/Unexpected non-whitespace character after JSON/, 'there is more text after the end of the JSON: paste one block.'],
  [/Unexpected token/, 'this is not JSON here: names and texts go in "double quotes", and true, false and null are written in full.'],
];
const endsTooEarly = 'the text ends too early: a closing } or ] is missing.';

function describeJsonError(text: string, message: string, position: number | undefined): string {
  const atEnd = position !== undefined && text.slice(position).trim() === '';
  const reason = atEnd || /end of JSON input/.test(message) ? endsTooEarly : (reasons.find(([pattern]) => pattern.test(message))?.[1] ?? 'this is not valid JSON.');
  if (position === undefined) return `The text is not valid JSON: ${reason}`;
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `Line ${line}, column ${column}: ${reason}`;
}
