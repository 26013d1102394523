// MCP Apps: a tool with a view may show its arguments while the model is still writing them
// (`ui/notifications/tool-input-partial`). The provider streams the arguments as pieces of JSON; this keeps
// each call's text so far and shows it, read as far as it goes ("healed" partial JSON, by partial-json), at
// most every `intervalMs` — and once more after the last piece of a pause, so what is shown is never
// behind for long. An unfinished number or word (`tru`) is left out until whole: a view never shows 1 on
// the way to 100.

import { Allow, parse } from 'partial-json';

/** Past this much text, a call's arguments are shown once they are whole, not as they come. */
const MAX_PARTIAL_CHARS = 256_000;

export type ShowPartialInput = (callId: string, soFar: Record<string, unknown>) => void;

interface CallInput {
  json: string;
  shownAt: number;
  shown: string;
  later?: ReturnType<typeof setTimeout>;
}

export class PartialToolInputs {
  private readonly calls = new Map<string, CallInput>();
  private readonly show: ShowPartialInput;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(show: ShowPartialInput, options: { intervalMs?: number; now?: () => number } = {}) {
    this.show = show;
    this.intervalMs = options.intervalMs ?? 50;
    this.now = options.now ?? Date.now;
  }

  /** Adds a piece of a call's arguments, shown now or, within the interval of the last showing, after it. */
  add(callId: string, piece: string): void {
    const call = this.calls.get(callId) ?? { json: '', shownAt: -Infinity, shown: '' };
    this.calls.set(callId, call);
    call.json += piece;
    if (call.json.length > MAX_PARTIAL_CHARS || call.later !== undefined) return;
    const wait = call.shownAt + this.intervalMs - this.now();
    if (wait <= 0) this.showSoFar(callId, call);
    else call.later = setTimeout(() => {
      call.later = undefined;
      this.showSoFar(callId, call);
    }, wait);
  }

  /** The call's whole arguments arrived: nothing more is shown of it. */
  end(callId: string): void {
    const call = this.calls.get(callId);
    if (call?.later !== undefined) clearTimeout(call.later);
    this.calls.delete(callId);
  }

  /** The step ended (or failed): nothing more is shown of any call. */
  endAll(): void {
    for (const callId of [...this.calls.keys()]) this.end(callId);
  }

  private showSoFar(callId: string, call: CallInput): void {
    const soFar = readSoFar(call.json);
    if (soFar === undefined) return;
    const text = JSON.stringify(soFar);
    if (text === call.shown) return;
    call.shown = text;
    call.shownAt = this.now();
    this.show(callId, soFar);
  }
}

function readSoFar(json: string): Record<string, unknown> | undefined {
  if (json.trim() === '') return undefined;
  try {
    const value: unknown = parse(json, Allow.STR | Allow.ARR | Allow.OBJ);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    // Not far enough to read (an unfinished number or literal), or not JSON at all: nothing to show yet.
    return undefined;
  }
}
