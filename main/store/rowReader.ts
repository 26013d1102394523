// The one way a row read from SQLite becomes a typed record: each column is checked for the type the
// record needs, so a damaged or migrated-wrong row fails with the table and column named instead of
// travelling on as a lie (a string where a number was promised, a status no code knows). Every store
// reads its rows through this — the history, the grant ledger, the audit log, the tool pins and the
// workspaces — never by casting.

import type { SQLOutputValue } from 'node:sqlite';

export type Row = Record<string, SQLOutputValue>;

/** A row of `table`, read column by column. */
export class RowReader {
  private readonly table: string;
  private readonly row: Row;

  constructor(table: string, row: Row) {
    this.table = table;
    this.row = row;
  }

  private fault(column: string, wanted: string): Error {
    return new Error(`${this.table}: column ${column} is not ${wanted}`);
  }

  text(column: string): string {
    const value = this.row[column];
    if (typeof value !== 'string') throw this.fault(column, 'text');
    return value;
  }

  int(column: string): number {
    const value = this.row[column];
    if (typeof value !== 'number') throw this.fault(column, 'a number');
    return value;
  }

  optText(column: string): string | undefined {
    const value = this.row[column];
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'string') throw this.fault(column, 'text');
    return value;
  }

  optInt(column: string): number | undefined {
    const value = this.row[column];
    if (value === null || value === undefined) return undefined;
    if (typeof value !== 'number') throw this.fault(column, 'a number');
    return value;
  }

  /** A text column holding one of `allowed` (the table's CHECK constraint, as the code knows it). */
  oneOf<const T extends string>(column: string, allowed: readonly T[]): T {
    const value = this.text(column);
    const found = allowed.find((candidate) => candidate === value);
    if (found === undefined) throw this.fault(column, `one of ${allowed.join(', ')}`);
    return found;
  }

  /** A text column holding JSON; undefined when NULL. What the JSON holds is the caller's to check. */
  optJson(column: string): unknown {
    const text = this.optText(column);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  }

  json(column: string): unknown {
    return JSON.parse(this.text(column)) as unknown;
  }
}

/** Reads every row of a statement's result with `read`. */
export function readRows<T>(table: string, rows: readonly Row[], read: (row: RowReader) => T): T[] {
  return rows.map((row) => read(new RowReader(table, row)));
}

/** One row or none (a `get` that found nothing), read with `read`. */
export function readOne<T>(table: string, row: Row | undefined, read: (row: RowReader) => T): T | undefined {
  return row === undefined ? undefined : read(new RowReader(table, row));
}
