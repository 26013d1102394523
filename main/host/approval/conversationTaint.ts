// Untrusted content raises the bar. Once a conversation holds text a server the person does not trust
// wrote — a tool's result, a resource they attached, a prompt they ran, what a view reported — a skill
// (whoever serves it: it is instructions by design), or what a trusted server's open-world tool read (the web, mail, tickets: text anyone may have written), that text
// may carry instructions aimed at the model. From then on, in that conversation, every tool that could act
// on them — one that may delete things, or one that reaches beyond the computer and could send data out —
// asks the person each time, whatever was allowed. A tool that declares it deletes nothing and stays on
// the computer keeps the person's answer: injected words can make it do nothing the person has not already
// allowed it to do. The mark is kept with the conversation in atrium.db (deleted with it), so a reload or a
// restart does not clear it.

import type { ToolSummary } from '../../../shared/domain.ts';
import type { UntrustedSource } from '../../../shared/pendingPayloads.ts';
import { untrustedSourceText } from '../../../shared/approvalReach.ts';
import type { Database, Migration } from '../../store/database.ts';
import { couldActOnInjection, effectiveHints } from '../../../shared/toolHints.ts';
import { RowReader } from '../../store/rowReader.ts';

export const taintMigrations: readonly Migration[] = [
  {
    id: 'conversation-taint-1',
    sql: `
      CREATE TABLE conversation_taint (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        why TEXT NOT NULL CHECK (why IN ('open-world', 'untrusted')),
        tainted_at INTEGER NOT NULL
      );
    `,
  },
  {
    // Content reaches the model by other paths than a tool's result; the marks made before were all results.
    id: 'conversation-taint-2',
    sql: `
      ALTER TABLE conversation_taint RENAME COLUMN tool TO name;
      ALTER TABLE conversation_taint ADD COLUMN kind TEXT NOT NULL DEFAULT 'tool' CHECK (kind IN ('tool', 'resource', 'prompt', 'view'));
    `,
  },
  {
    // A skill the conversation loaded is content too. SQLite cannot change a CHECK: the table is made again.
    id: 'conversation-taint-3',
    sql: `
      CREATE TABLE conversation_taint_new (
        conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        name TEXT NOT NULL,
        why TEXT NOT NULL CHECK (why IN ('open-world', 'untrusted')),
        tainted_at INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'tool' CHECK (kind IN ('tool', 'resource', 'prompt', 'view', 'skill'))
      );
      INSERT INTO conversation_taint_new (conversation_id, server_id, name, why, tainted_at, kind)
        SELECT conversation_id, server_id, name, why, tainted_at, kind FROM conversation_taint;
      DROP TABLE conversation_taint;
      ALTER TABLE conversation_taint_new RENAME TO conversation_taint;
    `,
  },
];

/** The first untrusted content the conversation took in: the one the person is told about. */
export interface TaintSource extends UntrustedSource {
  at: number;
}

/** What a conversation takes in from a server: a tool's result, or what a message or a turn carries. */
export type TakenIn = { kind: 'tool'; tool: ToolSummary } | { kind: 'resource' | 'prompt' | 'view' | 'skill'; serverId: string; name: string };

/** The untrusted source this content is, or undefined when it is trusted. */
export function taintOf(content: TakenIn, serverTrusted: (serverId: string) => boolean): UntrustedSource | undefined {
  // A skill is instructions for the model by design, so it raises the bar whoever serves it.
  if (content.kind === 'skill') return { kind: 'skill', serverId: content.serverId, name: content.name, why: 'untrusted' };
  if (content.kind !== 'tool') return serverTrusted(content.serverId) ? undefined : { kind: content.kind, serverId: content.serverId, name: content.name, why: 'untrusted' };
  const { tool } = content;
  const source = { serverId: tool.serverId, kind: 'tool' as const, name: tool.name };
  if (!serverTrusted(tool.serverId)) return { ...source, why: 'untrusted' };
  // A missing openWorldHint means open-world (the spec's default).
  return effectiveHints(tool.annotations).openWorld ? { ...source, why: 'open-world' } : undefined;
}

/**
 * A tool that could act on injected instructions: it may delete things, or it reaches beyond the computer.
 * Judged by what the tool declares: the bar only ever stops a call that would otherwise run, and a call
 * runs without asking only when the server is trusted (its word is believed) or when the person allowed
 * the tool as it declares itself (the dialog showed it; a changed declaration is withheld until approved).
 */
export function raisesTheBar(tool: Pick<ToolSummary, 'annotations'>): boolean {
  return couldActOnInjection(tool.annotations);
}

/** The sentence the approval dialog and the CLI show. */
export function taintReason(source: UntrustedSource): string {
  return `this conversation holds ${untrustedSourceText(source)}, which may carry instructions`;
}

export class ConversationTaint {
  private readonly db: Database;
  private readonly now: () => number;

  /** `db` must have been opened with the history's migrations and `taintMigrations`. */
  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  /** Marks the conversation as holding this content; the first mark is the one kept. */
  mark(conversationId: string, source: UntrustedSource): void {
    this.db
      .prepare('INSERT OR IGNORE INTO conversation_taint (conversation_id, server_id, kind, name, why, tainted_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(conversationId, source.serverId, source.kind, source.name, source.why, this.now());
  }

  of(conversationId: string): TaintSource | undefined {
    const found = this.db.prepare('SELECT * FROM conversation_taint WHERE conversation_id = ?').get(conversationId);
    if (!found) return undefined;
    const row = new RowReader('conversation_taint', found);
    return {
      serverId: row.text('server_id'),
      kind: row.oneOf('kind', ['tool', 'resource', 'prompt', 'view', 'skill']),
      name: row.text('name'),
      why: row.oneOf('why', ['open-world', 'untrusted']),
      at: row.int('tainted_at'),
    };
  }
}
