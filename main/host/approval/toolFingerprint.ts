// A tool's identity for approvals: a grant is tied to exactly what the person saw (name, description,
// input schema, annotations), so a server that edits a tool after approval cannot keep the grant.
// Hashing canonical JSON makes the fingerprint independent of key order, which servers do not keep
// stable between lists.

import { createHash } from 'node:crypto';
import type { ToolAnnotationsView } from '../../../shared/domain.ts';

export interface FingerprintedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotationsView;
}

/** Hex sha256 of the canonical JSON of the tool's name, description, input schema and annotations. */
export function toolFingerprint(tool: FingerprintedTool): string {
  // Only these four fields: a tool's other fields (title, icons, outputSchema) may change without
  // changing what the person agreed to let it do. A version tag lets the recipe change later.
  const subject = {
    v: 1,
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  };
  return createHash('sha256').update(canonicalJson(subject)).digest('hex');
}

/**
 * JSON with object keys sorted at every depth. Like JSON.stringify, undefined properties are left out and
 * undefined array items become null, so a tool read back from JSON has the fingerprint it had before.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, path: Set<object>): string {
  if (value === null || typeof value !== 'object') {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null';
    if (typeof value === 'bigint') return JSON.stringify(value.toString());
    return JSON.stringify(value);
  }
  if (path.has(value)) throw new TypeError('canonicalJson: the value is circular');
  path.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item: unknown) => write(item, path)).join(',')}]`;
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${write(item, path)}`).join(',')}}`;
  } finally {
    path.delete(value);
  }
}
