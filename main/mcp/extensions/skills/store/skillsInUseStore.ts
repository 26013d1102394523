// Skills: the skills each conversation is using. From the moment a skill's SKILL.md enters a
// conversation's context, Atrium holds the entry it was loaded from, and every later read of the skill's
// files in that conversation is checked against that entry alone (a file it does not list is refused).
// The SKILL.md stays in the conversation, so the entry is kept with it, across restarts, until the
// conversation is deleted (or the skill's server removed).

import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { Database, Migration } from '../../../../store/database.ts';
import { readOne, readRows } from '../../../../store/rowReader.ts';
import type { RowReader } from '../../../../store/rowReader.ts';

export const skillsInUseMigrations: readonly Migration[] = [
  {
    id: 'skills-in-use-1',
    sql: `
      CREATE TABLE skills_in_use (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        uri TEXT NOT NULL,
        entry TEXT NOT NULL,
        since INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, server_id, uri)
      );
    `,
  },
];

/** A skill a conversation is using, with the entry its SKILL.md was verified against. */
export interface HeldSkill {
  conversationId: string;
  serverId: string;
  uri: string;
  /** Written by this store from an entry the SDK checked. */
  entry: Skill;
  since: number;
}

function readHeld(row: RowReader): HeldSkill {
  return {
    conversationId: row.text('conversation_id'),
    serverId: row.text('server_id'),
    uri: row.text('uri'),
    entry: row.json('entry') as Skill,
    since: row.int('since'),
  };
}

export class SkillsInUseStore {
  private readonly db: Database;
  private readonly now: () => number;

  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  /** The conversation now uses this skill, as loaded from `entry` (a newer load replaces an older one). */
  hold(conversationId: string, serverId: string, entry: Skill): void {
    this.db
      .prepare('INSERT OR REPLACE INTO skills_in_use (conversation_id, server_id, uri, entry, since) VALUES (?, ?, ?, ?, ?)')
      .run(conversationId, serverId, entry.uri, JSON.stringify(entry), this.now());
  }

  get(conversationId: string, serverId: string, uri: string): HeldSkill | undefined {
    return readOne('skills_in_use', this.db.prepare('SELECT * FROM skills_in_use WHERE conversation_id = ? AND server_id = ? AND uri = ?').get(conversationId, serverId, uri), readHeld);
  }

  list(conversationId: string): HeldSkill[] {
    return readRows('skills_in_use', this.db.prepare('SELECT * FROM skills_in_use WHERE conversation_id = ? ORDER BY since, rowid').all(conversationId), readHeld);
  }

  /** The skill changed under the conversation: it stops using it (using it again loads it anew). */
  drop(conversationId: string, serverId: string, uri: string): boolean {
    return Number(this.db.prepare('DELETE FROM skills_in_use WHERE conversation_id = ? AND server_id = ? AND uri = ?').run(conversationId, serverId, uri).changes) > 0;
  }

  /** The server was removed; returns the conversations that were using one of its skills. */
  forgetServer(serverId: string): string[] {
    const conversations = (this.db.prepare('SELECT DISTINCT conversation_id FROM skills_in_use WHERE server_id = ?').all(serverId) as { conversation_id: string }[]).map((row) => row.conversation_id);
    this.db.prepare('DELETE FROM skills_in_use WHERE server_id = ?').run(serverId);
    return conversations;
  }
}
