// What is wrong with a server as the server editor sends it, every problem at once and in the editor's
// words (its labels: Name, Command, Address…), each tied to the request key of the field it concerns.
// The servers-file checks (parseServerEntry) still decide; their wording is for people editing the file.

import type { FieldProblem } from '../../shared/fieldProblems.ts';
import { SERVER_FORM_LABELS, nameTakenMessage } from '../../shared/serverFormLabels.ts';
import type { NameHolder } from '../../shared/serverFormLabels.ts';
import { parseServerEntry } from '../mcp/config/serverConfig.ts';
import type { ServerDefinition } from '../mcp/config/serverConfig.ts';

/** The editor's label for each entry key it edits. */
const entryLabels: Record<string, string> = SERVER_FORM_LABELS;
const L = SERVER_FORM_LABELS;

export interface ServerForm {
  serverId: string;
  entry: Record<string, unknown>;
  /** The server being edited, whose name may stay as it is. */
  replaces?: string;
}

/**
 * The parsed server, or every problem with the form. `takenBy` says what holds a name already: another
 * server, or an entry of the servers file that could not be read (a hand edit with a mistake), which a
 * new server must not write over.
 */
export function checkServerForm(form: ServerForm, takenBy: (id: string) => NameHolder | undefined): { server: ServerDefinition } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const name = form.serverId;
  if (name.trim() === '') problems.push({ field: 'serverId', message: `${L.serverId} is required: give the server a short name, for example "files".` });
  // eslint-disable-next-line no-control-regex -- a server name must not hold control characters.
  else if (/[\u0000-\u001f]/.test(name)) problems.push({ field: 'serverId', message: `${L.serverId} cannot hold control characters (a line break, a tab, an escape): type it on one line, in plain characters.` });
  else if (name !== form.replaces) {
    const holder = takenBy(name);
    if (holder !== undefined) problems.push({ field: 'serverId', message: nameTakenMessage(name, holder) });
  }

  const { entry } = form;
  const remote = entry['url'] !== undefined || entry['type'] === 'http' || entry['type'] === 'sse';
  if (!remote && isBlank(entry['command'])) problems.push({ field: 'entry.command', message: `${L.command} is required: the program that starts the server, for example npx or node.` });
  if (remote) {
    const address = typeof entry['url'] === 'string' ? entry['url'].trim() : '';
    if (address === '') problems.push({ field: 'entry.url', message: `${L.url} is required: the server's web address, for example https://example.com/mcp.` });
    else if (!isWebAddress(address)) problems.push({ field: 'entry.url', message: `${L.url} "${address.slice(0, 200)}" is not a web address: it starts with https:// (or http://), for example https://example.com/mcp.` });
  }
  if (problems.length > 0) return { problems };

  const parsed = parseServerEntry(name, entry);
  if ('server' in parsed) return parsed;
  const key = parsed.problem.field.split('.')[0] ?? '';
  const label = entryLabels[key];
  // The file's wording names the server and the key; beside a field, the label says which one.
  return { problems: [{ field: label ? `entry.${key}` : 'entry', message: label ? `${label}: ${parsed.problem.message.replace(/^server "[^"]*": /, '')}` : parsed.problem.message }] };
}

function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
