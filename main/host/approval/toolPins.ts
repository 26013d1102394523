// Every tool Atrium has seen is pinned at first sight: its whole definition (title, description, input and
// output schemas, annotations) is kept with a fingerprint. A server that later changes a tool — by a
// list_changed notification or between runs — cannot slip the new text to the model: the tool is marked
// `changed` and withheld until the person approves the new definition, which they see beside the old one.
// This holds whatever grants say, since a read-only tool of a trusted server runs without any grant.
// Pins live in atrium.db (one transaction per write), beside the grants.

import { createHash } from 'node:crypto';
import type { ServerId, ToolDefinitionView, ToolSummary } from '../../../shared/domain.ts';
import type { Database, Migration } from '../../store/database.ts';
import { canonicalJson } from './toolFingerprint.ts';
import { readRows } from '../../store/rowReader.ts';
import type { RowReader } from '../../store/rowReader.ts';

export const toolPinMigrations: readonly Migration[] = [
  {
    id: 'tool-pins-1',
    sql: `
      CREATE TABLE tool_pins (
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        definition TEXT NOT NULL,
        pinned_at INTEGER NOT NULL,
        PRIMARY KEY (server_id, tool)
      );
    `,
  },
];

interface Pin {
  fingerprint: string;
  definition: ToolDefinitionView;
  pinnedAt: number;
}

/** A tool cannot be approved: it is gone, or it changed again since the person looked at it. */
export class ToolApprovalError extends Error {
  readonly code = 'failed';
}

/** A direct call of a tool whose definition changed since it was approved: the person reviews it first. */
export class ToolWithheldError extends Error {
  readonly code = 'failed';
  constructor(serverId: string, tool: string) {
    super(
      `${serverId} changed the tool "${tool}" since it was approved, so it cannot be called until you review and approve the new version (in the window: the server's Tools tab; in a terminal: atrium tools approve ${serverId} ${tool})`,
    );
  }
}

/** The part of a tool the person approves; `enabled` and the model-facing name are Atrium's own. */
export function toolDefinition(tool: ToolSummary): ToolDefinitionView {
  return {
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}

/** Hex sha256 of the canonical JSON of the tool's name and definition (key order does not matter). */
export function definitionFingerprint(name: string, definition: ToolDefinitionView): string {
  return createHash('sha256').update(canonicalJson({ v: 1, name, ...definition })).digest('hex');
}

export class ToolPins {
  private readonly db: Database;
  private readonly now: () => number;
  // Read once; every write goes to the file and here, so a turn's check costs no query.
  private readonly pins = new Map<string, Pin>();

  /** `db` must have been opened with `toolPinMigrations`. */
  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
    const readPin = (row: RowReader) => ({
      serverId: row.text('server_id'),
      tool: row.text('tool'),
      // Written by this module from a ToolDefinitionView; its fingerprint is checked against it on every review.
      pin: { fingerprint: row.text('fingerprint'), definition: row.json('definition') as ToolDefinitionView, pinnedAt: row.int('pinned_at') },
    });
    for (const { serverId, tool, pin } of readRows('tool_pins', db.prepare('SELECT * FROM tool_pins').all(), readPin)) this.pins.set(key(serverId, tool), pin);
  }

  /**
   * Pins the tools seen for the first time and returns every tool with `changed` set where its definition
   * differs from the pinned one (and without it otherwise). A tool that matches its pin comes back as the
   * same object, so callers can tell an unchanged list from a new one.
   */
  review(tools: readonly ToolSummary[]): ToolSummary[] {
    return tools.map((tool) => {
      const plain = tool.changed === undefined ? tool : withoutChange(tool);
      const { definition, fingerprint } = this.fingerprintOf(plain);
      const pin = this.pins.get(key(tool.serverId, tool.name));
      if (!pin) {
        this.pin(tool.serverId, tool.name, definition, fingerprint);
        return plain;
      }
      if (pin.fingerprint === fingerprint) return plain;
      return { ...plain, changed: { previous: pin.definition, pinnedAt: pin.pinnedAt, fingerprint } };
    });
  }

  // A tool's fingerprint is worked out once per tool object: lists are replaced when they change, never edited.
  private readonly fingerprints = new WeakMap<ToolSummary, { definition: ToolDefinitionView; fingerprint: string }>();

  private fingerprintOf(tool: ToolSummary): { definition: ToolDefinitionView; fingerprint: string } {
    let known = this.fingerprints.get(tool);
    if (!known) {
      const definition = toolDefinition(tool);
      known = { definition, fingerprint: definitionFingerprint(tool.name, definition) };
      this.fingerprints.set(tool, known);
    }
    return known;
  }

  /**
   * The person approved the tool's new definition, the one whose fingerprint they saw. Fails when the tool
   * is not there or changed again meanwhile, so nothing is approved unseen.
   */
  approve(tool: ToolSummary | undefined, fingerprint: string, name: { serverId: ServerId; tool: string }): void {
    if (!tool) throw new ToolApprovalError(`${name.serverId} no longer offers the tool "${name.tool}"`);
    const { changed: _ignored, ...plain } = tool;
    const definition = toolDefinition(plain);
    const current = definitionFingerprint(tool.name, definition);
    if (current !== fingerprint) {
      throw new ToolApprovalError(`${tool.serverId}'s tool "${tool.name}" changed again since you looked at it; look at the new version and approve it again`);
    }
    this.pin(tool.serverId, tool.name, definition, current);
  }

  /** Forgets a removed server's pins: a server added later under the same name starts afresh. */
  forgetServer(serverId: ServerId): void {
    this.db.prepare('DELETE FROM tool_pins WHERE server_id = ?').run(serverId);
    for (const pinKey of [...this.pins.keys()]) if (JSON.parse(pinKey)[0] === serverId) this.pins.delete(pinKey);
  }

  private pin(serverId: ServerId, tool: string, definition: ToolDefinitionView, fingerprint: string): void {
    const pinnedAt = this.now();
    this.db
      .prepare(
        `INSERT INTO tool_pins (server_id, tool, fingerprint, definition, pinned_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (server_id, tool) DO UPDATE SET fingerprint = excluded.fingerprint, definition = excluded.definition, pinned_at = excluded.pinned_at`,
      )
      .run(serverId, tool, fingerprint, JSON.stringify(definition), pinnedAt);
    this.pins.set(key(serverId, tool), { fingerprint, definition, pinnedAt });
  }
}

function withoutChange(tool: ToolSummary): ToolSummary {
  const { changed: _ignored, ...plain } = tool;
  return plain;
}

function key(serverId: string, tool: string): string {
  return JSON.stringify([serverId, tool]);
}
