// Skills: the person's approval of a skill, bound to exactly the files its server listed when they
// approved it (every file's URI and digest), and the tools of its `allowed-tools` they let run without
// asking. Kept in atrium.db under the skill's identity (the server's name in Atrium, the SKILL.md URI).
// An approval is revoked, not deleted, when the server lists other files: the next use shows what changed.

import type { Database, Migration } from '../../../../store/database.ts';
import { readOne, readRows } from '../../../../store/rowReader.ts';
import type { RowReader } from '../../../../store/rowReader.ts';

export const skillApprovalMigrations: readonly Migration[] = [
  {
    id: 'skill-approvals-1',
    sql: `
      CREATE TABLE skill_approvals (
        server_id TEXT NOT NULL,
        uri TEXT NOT NULL,
        files TEXT NOT NULL,
        tools_granted TEXT NOT NULL,
        approved_at INTEGER NOT NULL,
        revoked_at INTEGER,
        PRIMARY KEY (server_id, uri)
      );
    `,
  },
];

/** One file as approved: what a later listing is compared with. */
export interface ApprovedFile {
  uri: string;
  digest: string;
}

export interface StoredSkillApproval {
  serverId: string;
  uri: string;
  files: ApprovedFile[];
  toolsGranted: string[];
  approvedAt: number;
  /** When a listing showed other files than these: the approval no longer holds. */
  revokedAt?: number;
}

function readApproval(row: RowReader): StoredSkillApproval {
  const files = row.json('files');
  const tools = row.json('tools_granted');
  const revokedAt = row.optInt('revoked_at');
  return {
    serverId: row.text('server_id'),
    uri: row.text('uri'),
    // Written by this store from typed values; anything else reads as no file and no tool, which approves nothing.
    files: Array.isArray(files) ? files.filter(isApprovedFile) : [],
    toolsGranted: Array.isArray(tools) ? tools.filter((tool): tool is string => typeof tool === 'string') : [],
    approvedAt: row.int('approved_at'),
    ...(revokedAt !== undefined ? { revokedAt } : {}),
  };
}

function isApprovedFile(value: unknown): value is ApprovedFile {
  return typeof value === 'object' && value !== null && typeof (value as ApprovedFile).uri === 'string' && typeof (value as ApprovedFile).digest === 'string';
}

export class SkillApprovalStore {
  private readonly db: Database;
  private readonly now: () => number;

  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  get(serverId: string, uri: string): StoredSkillApproval | undefined {
    return readOne('skill_approvals', this.db.prepare('SELECT * FROM skill_approvals WHERE server_id = ? AND uri = ?').get(serverId, uri), readApproval);
  }

  list(serverId: string): StoredSkillApproval[] {
    return readRows('skill_approvals', this.db.prepare('SELECT * FROM skill_approvals WHERE server_id = ?').all(serverId), readApproval);
  }

  /** The person approved the skill with exactly these files (replacing an earlier approval, revoked or not). */
  approve(serverId: string, uri: string, files: readonly ApprovedFile[], toolsGranted: readonly string[]): void {
    const sorted = [...files].map(({ uri: file, digest }) => ({ uri: file, digest })).sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    this.db
      .prepare('INSERT OR REPLACE INTO skill_approvals (server_id, uri, files, tools_granted, approved_at, revoked_at) VALUES (?, ?, ?, ?, ?, NULL)')
      .run(serverId, uri, JSON.stringify(sorted), JSON.stringify([...toolsGranted]), this.now());
  }

  /** The server lists other files now: the approval stops holding (kept, to show what changed). True when it held until now. */
  revoke(serverId: string, uri: string): boolean {
    return Number(this.db.prepare('UPDATE skill_approvals SET revoked_at = ? WHERE server_id = ? AND uri = ? AND revoked_at IS NULL').run(this.now(), serverId, uri).changes) > 0;
  }

  /** The person takes the approval back: the next use asks as the first did. */
  forget(serverId: string, uri: string): boolean {
    return Number(this.db.prepare('DELETE FROM skill_approvals WHERE server_id = ? AND uri = ?').run(serverId, uri).changes) > 0;
  }

  /** The server was removed: its skills' approvals go with it. */
  forgetServer(serverId: string): void {
    this.db.prepare('DELETE FROM skill_approvals WHERE server_id = ?').run(serverId);
  }
}
