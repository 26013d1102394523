// The server editor's form as plain data: a draft made from a stored entry (servers.json's shape, one
// argument per line, KEY=value, Name: value) and the entry made back from it. What the form does not
// edit is kept as it was, so editing a server never loses a setting the form does not show.

import type { StoredServerEntry } from '../../../shared/domain.ts';
import { SERVER_FORM_LABELS as L } from '../../../shared/serverFormLabels.ts';
import { AtriumRequestError } from '../../api/AtriumRequestError.ts';

export type Kind = 'stdio' | 'http' | 'sse';

export interface Draft {
  name: string;
  kind: Kind;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  trusted: boolean;
}

export const emptyDraft: Draft = { name: '', kind: 'stdio', command: '', args: '', env: '', cwd: '', url: '', headers: '', trusted: false };

/** The draft of a stored entry (servers.json shape): one argument per line, KEY=value, Name: value. */
export function draftOf(name: string, entry: StoredServerEntry): Draft {
  const lines = (record: Record<string, string> | undefined, join: string) =>
    Object.entries(record ?? {})
      .map(([key, value]) => `${key}${join}${value}`)
      .join('\n');
  const common = { name, trusted: entry.trusted === true };
  if ('command' in entry) {
    return { ...emptyDraft, ...common, kind: 'stdio', command: entry.command, args: entry.args.join('\n'), env: lines(entry.env, '='), cwd: entry.cwd ?? '' };
  }
  return { ...emptyDraft, ...common, kind: entry.type, url: entry.url, headers: lines(entry.headers, ': ') };
}

/**
 * The words of a command line as a shell would split it for the simple cases people paste: at spaces,
 * with a word in single or double quotes kept whole (a path with spaces is quoted). A backslash is an
 * ordinary character, as in a Windows path.
 */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (const char of line) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * A whole command line typed (or pasted) into Command, moved where it belongs: its first word stays the
 * command, the others go first in Arguments, one per line. Undefined when Command holds just a command.
 */
export function splitCommandField(draft: Draft): { draft: Draft; command: string; moved: number } | undefined {
  const [command, ...rest] = commandWords(draft.command);
  if (command === undefined || (rest.length === 0 && command === draft.command.trim())) return undefined;
  const args = [...rest, ...draft.args.split('\n').filter((line) => line !== '')].join('\n');
  return { draft: { ...draft, command, args }, command, moved: rest.length };
}

/** The request keys of the fields this form shows, so the host's problems land beside them. */
export const formFields = ['serverId', 'entry.command', 'entry.args', 'entry.env', 'entry.cwd', 'entry.url', 'entry.headers'] as const;

/** A problem found in the form before anything is sent: a line of Environment or Headers not in NAME=value form. */
export class DraftProblem extends AtriumRequestError {}

function pairs(text: string, separator: string, field: string, label: string, example: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(separator);
    if (line.trim() === '') continue;
    if (at <= 0) {
      const message = `${label}: the line "${line.slice(0, 100)}" needs the form ${example}, one per line.`;
      throw new DraftProblem({ code: 'invalid_params', message, fields: [{ field, message }] });
    }
    out[line.slice(0, at).trim()] = line.slice(at + separator.length).trim();
  }
  return out;
}

/**
 * The entry the host validates and stores, with the settings this form does not edit kept as they were:
 * whether it is on, its tools turned off, its time limits, and a remote server's `oauth` block (which the
 * form does not show; dropping it would lose the person's registered client).
 */
export function entryOf(draft: Draft, previous: StoredServerEntry | null): StoredServerEntry {
  const kept = {
    ...(previous?.disabled ? { disabled: previous.disabled } : {}),
    ...(previous?.disabledTools !== undefined ? { disabledTools: previous.disabledTools } : {}),
    ...(previous?.alwaysLoadedTools !== undefined ? { alwaysLoadedTools: previous.alwaysLoadedTools } : {}),
    ...(previous?.requestTimeoutMs !== undefined ? { requestTimeoutMs: previous.requestTimeoutMs } : {}),
    ...(previous && 'maxMessageBytes' in previous && previous.maxMessageBytes !== undefined ? { maxMessageBytes: previous.maxMessageBytes } : {}),
  };
  const trusted = draft.trusted ? { trusted: true as const } : {};
  if (draft.kind === 'stdio') {
    const env = pairs(draft.env, '=', 'entry.env', L.env, 'NAME=value');
    return {
      ...kept,
      command: draft.command.trim(),
      args: draft.args.split('\n').filter((line) => line !== ''),
      ...(Object.keys(env).length ? { env } : {}),
      ...(draft.cwd.trim() ? { cwd: draft.cwd.trim() } : {}),
      ...trusted,
    };
  }
  const headers = pairs(draft.headers, ':', 'entry.headers', L.headers, 'Name: value');
  const oauth = previous && 'oauth' in previous && previous.oauth !== undefined ? { oauth: previous.oauth } : {};
  return { ...kept, type: draft.kind, url: draft.url.trim(), ...(Object.keys(headers).length ? { headers } : {}), ...oauth, ...trusted };
}

