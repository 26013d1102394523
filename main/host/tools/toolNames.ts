// Model-facing tool names. Every tool of every server gets one name that is unique across servers,
// valid for both providers (Anthropic: ^[a-zA-Z0-9_-]{1,128}$, OpenAI: ^[a-zA-Z0-9_-]{1,64}$, so the
// stricter 64 applies) and maps back to exactly one (server, tool). A name is `server__tool` when that
// is already valid and unambiguous; otherwise it is shortened and given a hash of the original pair, so
// the same tool keeps the same name whatever else is connected (stable names keep prompt caches warm).

import { createHash } from 'node:crypto';
import { withoutMarks } from '../../../shared/serverText.ts';

export const MODEL_TOOL_NAME_MAX = 64;
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;
const SEPARATOR = '__';

export interface ToolRef {
  serverId: string;
  tool: string;
}

export interface ToolNameTable {
  /** model-facing name → (server, tool) */
  byModelName: ReadonlyMap<string, ToolRef>;
  modelNameOf(serverId: string, tool: string): string | undefined;
}

export function buildToolNameTable(refs: readonly ToolRef[]): ToolNameTable {
  const plain = new Map<string, ToolRef[]>();
  for (const ref of refs) {
    const name = `${ref.serverId}${SEPARATOR}${ref.tool}`;
    const list = plain.get(name) ?? [];
    list.push(ref);
    plain.set(name, list);
  }
  const byModelName = new Map<string, ToolRef>();
  const byRef = new Map<string, string>();
  const needsHash: ToolRef[] = [];
  for (const [name, list] of plain) {
    const [only] = list;
    if (only && list.length === 1 && VALID.test(name) && !only.serverId.includes(SEPARATOR)) {
      byModelName.set(name, only);
      byRef.set(refKey(only), name);
    } else {
      needsHash.push(...list);
    }
  }
  // Plain names are placed first; a hashed name that happens to equal one takes a longer hash.
  for (const ref of needsHash) {
    let hashLength = 8;
    let modelName = hashedName(ref, hashLength);
    while (byModelName.has(modelName)) modelName = hashedName(ref, (hashLength += 4));
    byModelName.set(modelName, ref);
    byRef.set(refKey(ref), modelName);
  }
  return {
    byModelName,
    modelNameOf: (serverId, tool) => byRef.get(refKey({ serverId, tool })),
  };
}

function hashedName(ref: ToolRef, hashLength: number): string {
  const hash = createHash('sha256').update(JSON.stringify([ref.serverId, ref.tool])).digest('hex').slice(0, hashLength);
  const suffix = `_${hash}`;
  // A name with a marked hidden character reads as its plain letters; the hash tells it from a lookalike.
  const readable = `${sanitize(ref.serverId)}${SEPARATOR}${sanitize(withoutMarks(ref.tool))}`;
  return `${readable.slice(0, MODEL_TOOL_NAME_MAX - suffix.length)}${suffix}`;
}

function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_').replace(/_{2,}/g, '_') || 'x';
}

function refKey(ref: ToolRef): string {
  return JSON.stringify([ref.serverId, ref.tool]);
}
