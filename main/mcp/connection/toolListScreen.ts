// A server's tool list is read tool by tool: the SDK checks an answer to tools/list whole, so one tool
// that breaks the protocol's shape (no input schema, a description that is not text) would fail the whole
// list, and with it the server's start, again at every restart. Here each tool of each page is checked
// against the protocol's Tool before the SDK sees the answer; one that does not fit is left out, and the
// server's log says which and why, in words. The trace, below this layer, keeps the answer as it came.

import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { ServerLog } from '../serverLog.ts';
import { TransportDecorator } from './transportDecorator.ts';

// Lists asked for and not yet answered; a server that never answers cannot make the set grow.
const MAX_LISTS_AWAITED = 16;

export class ToolListScreen extends TransportDecorator {
  readonly #log: Pick<ServerLog, 'add'>;
  readonly #awaited = new Set<string | number>();

  constructor(inner: Transport, log: Pick<ServerLog, 'add'>) {
    super(inner);
    this.#log = log;
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message && message.method === 'tools/list' && 'id' in message && message.id !== undefined) {
      if (this.#awaited.size >= MAX_LISTS_AWAITED) this.#awaited.delete(this.#awaited.values().next().value as string | number);
      this.#awaited.add(message.id);
    }
    return super.send(message, options);
  }

  protected receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const answersList = !('method' in message) && 'id' in message && message.id !== undefined && this.#awaited.delete(message.id);
    this.deliver(answersList && 'result' in message ? this.#screened(message) : message, extra);
  }

  #screened(message: JSONRPCMessage & { result: Record<string, unknown> }): JSONRPCMessage {
    const { tools } = message.result;
    if (!Array.isArray(tools)) return message;
    const kept = tools.filter((tool: unknown, index) => {
      const problem = toolProblem(tool);
      if (problem !== undefined) this.#log.add('warning', 'host', `tool ${toolName(tool, index)} left out: ${problem}`);
      return problem === undefined;
    });
    return kept.length === tools.length ? message : { ...message, result: { ...message.result, tools: kept } };
  }
}

/** What keeps `tool` from being a tool as the protocol defines one, in words; undefined when nothing does. */
export function toolProblem(tool: unknown): string | undefined {
  const checked = specTypeSchemas.Tool['~standard'].validate(tool);
  const [issue] = checked.issues ?? [];
  if (!issue) return undefined;
  const path = (issue.path ?? []).map((step) => String(typeof step === 'object' ? step.key : step));
  const field = path.length === 0 ? 'it' : `its ${path.join('.')}`;
  const missing = path.length > 0 && valueAt(tool, path) === undefined;
  return missing ? `${field} is missing, which every tool must have` : `${field} is not what the protocol allows (${issue.message.replace(/^Invalid input: /, '')})`;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

function toolName(tool: unknown, index: number): string {
  const name = typeof tool === 'object' && tool !== null ? (tool as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? JSON.stringify(name) : `number ${index + 1} of the list`;
}
