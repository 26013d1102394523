// What the trace shows of a message's contents: a copy within bounds, with secrets redacted. A long string,
// a long list or a big object is cut where the bound is reached, and the cut says so in place, so a person
// reading it knows what is missing. Made only when someone reads the message (or at once for a big one).

import { isSecretKey, REDACTED, redactString } from '../../redactSecrets.ts';

/** The longest string shown whole; a longer one keeps this much, then a marker. */
export const MAX_STRING_CHARS = 4096;
/** Roughly how much text one message's copy holds (strings and keys); past it, the rest is cut. */
export const MAX_PREVIEW_CHARS = 64 * 1024;
/** Nesting deeper than this is cut: a copy's depth is bounded, as its size is. */
const MAX_DEPTH = 64;
/**
 * Protocol keys whose name sounds like a secret but whose value is the protocol's own (a progress token is
 * a request's number): shown as they are.
 */
const PROTOCOL_KEYS = new Set(['progressToken']);
/** Redaction looks a little past a cut, so a credential that straddles it is still recognised whole. */
const REDACTION_MARGIN = 256;

export interface Preview {
  json: unknown;
  truncated: boolean;
}

export function previewOf(value: unknown): Preview {
  const state = { budget: MAX_PREVIEW_CHARS, truncated: false };
  return { json: copy(value, state, 0), truncated: state.truncated };
}

interface CopyState {
  budget: number;
  truncated: boolean;
}

function copy(value: unknown, state: CopyState, depth: number): unknown {
  if (typeof value === 'string') return shownString(value, state);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) {
    state.truncated = true;
    return `[cut: nested deeper than ${MAX_DEPTH} levels]`;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      if (state.budget <= 0) {
        state.truncated = true;
        out.push(`[cut: ${value.length - index} more item${value.length - index === 1 ? '' : 's'}]`);
        break;
      }
      out.push(copy(value[index], state, depth + 1));
    }
    return out;
  }
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (state.budget <= 0) {
      state.truncated = true;
      out['[cut]'] = `${keys.length - index} more key${keys.length - index === 1 ? '' : 's'}`;
      break;
    }
    state.budget -= key.length;
    const item = (value as Record<string, unknown>)[key];
    // As the audit log does: a boolean or null under a secret key reveals nothing.
    const secret = item !== null && typeof item !== 'boolean' && !PROTOCOL_KEYS.has(key) && isSecretKey(key);
    // Entries, not assignments: a key "__proto__" from JSON stays a key.
    Object.defineProperty(out, key, { value: secret ? REDACTED : copy(item, state, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function shownString(text: string, state: CopyState): string {
  const room = Math.max(0, Math.min(MAX_STRING_CHARS, state.budget));
  if (text.length <= room) {
    state.budget -= text.length;
    return redactString(text);
  }
  state.truncated = true;
  // Redacted before it is cut, over a little more than is kept, so no credential is kept in part.
  const kept = redactString(text.slice(0, room + REDACTION_MARGIN)).slice(0, room);
  state.budget -= kept.length;
  const left = text.length - room;
  return `${kept}… [cut: ${left.toLocaleString('en')} more character${left === 1 ? '' : 's'}]`;
}
