// Untrusted content raises the bar. Once a conversation has taken in a result from an open-world tool (it
// reads the web, mail, tickets: text anyone may have written) or from a server the person does not trust,
// that text may carry instructions aimed at the model. From then on, in that conversation, every tool
// that could do harm with them — a destructive one, or an open-world one that can send data out — asks
// the person each time, whatever was allowed "always". The mark is kept with the conversation in
// atrium.db (deleted with it), so a reload or a restart does not clear it.

import type { ToolSummary } from '../../../shared/domain.ts';
import type { Database, Migration } from '../../store/database.ts';
import { believedHints } from './annotationPolicy.ts';
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
];

/** The first result that made the conversation untrusted: the one the person is told about. */
export interface TaintSource {
  serverId: string;
  tool: string;
  why: 'open-world' | 'untrusted';
  at: number;
}

/** Why a tool's result makes a conversation untrusted, or undefined when it does not. */
export function taintOf(tool: Pick<ToolSummary, 'annotations'>, serverTrusted: boolean): TaintSource['why'] | undefined {
  if (!serverTrusted) return 'untrusted';
  // A missing openWorldHint means open-world (the spec's default).
  return believedHints(tool.annotations, true).openWorld ? 'open-world' : undefined;
}

/** A tool that could act on injected instructions: destructive, or reaching outside the machine. Untrusted servers' hints are not believed. */
export function raisesTheBar(tool: Pick<ToolSummary, 'annotations'>, serverTrusted: boolean): boolean {
  const hints = believedHints(tool.annotations, serverTrusted);
  return hints.destructive || hints.openWorld;
}

/** The sentence the approval dialog and the CLI show. */
export function taintReason(source: Pick<TaintSource, 'serverId' | 'tool'>): string {
  return `this conversation has read content from ${source.serverId}/${source.tool}, which may carry instructions`;
}

export class ConversationTaint {
  private readonly db: Database;
  private readonly now: () => number;

  /** `db` must have been opened with the history's migrations and `taintMigrations`. */
  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  /** Marks the conversation as having read this tool's result; the first mark is the one kept. */
  mark(conversationId: string, source: Omit<TaintSource, 'at'>): void {
    this.db
      .prepare('INSERT OR IGNORE INTO conversation_taint (conversation_id, server_id, tool, why, tainted_at) VALUES (?, ?, ?, ?, ?)')
      .run(conversationId, source.serverId, source.tool, source.why, this.now());
  }

  of(conversationId: string): TaintSource | undefined {
    const found = this.db.prepare('SELECT * FROM conversation_taint WHERE conversation_id = ?').get(conversationId);
    if (!found) return undefined;
    const row = new RowReader('conversation_taint', found);
    return { serverId: row.text('server_id'), tool: row.text('tool'), why: row.oneOf('why', ['open-world', 'untrusted']), at: row.int('tainted_at') };
  }
}
