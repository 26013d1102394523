// `atrium trace <server> [--follow] [--json]`: the server's JSON-RPC messages as its trace keeps them, one
// line each (when, which way, what, its id, size and how long its answer took), or as JSON Lines with their
// contents (secrets redacted). With --follow it goes on printing messages as they pass, and the server's
// changes of state on stderr, until Ctrl+C. Through the API, as the window's Trace tab.

import type { TraceMessage } from '../../shared/contract.ts';
import { UNANSWERED_WORDS } from '../../shared/contract.ts';
import { durationText } from '../../shared/durationText.ts';
import type { ServerSnapshot, ServerStatus } from '../../shared/domain.ts';
import type { RunningHost } from '../app/hostCore.ts';
import { visible } from './formatOutput.ts';

export interface TraceIo {
  out(text: string): void;
  err(text: string): void;
  write(text: string): void;
}

export interface TraceOptions {
  follow: boolean;
  json: boolean;
  /** Ends following (Ctrl+C). */
  signal?: AbortSignal;
  /** Why the server is not usable, in a sentence; undefined when it is (or the person was asked already). */
  failure(status: ServerStatus): string | undefined;
}

export async function runTrace(serverId: string, core: RunningHost, io: TraceIo, options: TraceOptions): Promise<number> {
  const { api } = core;
  // Printed in the order the messages passed, however long each batch takes to read (--json reads contents).
  let printing = Promise.resolve();
  const print = (messages: readonly TraceMessage[]): Promise<void> => {
    printing = printing.then(async () => {
      if (messages.length === 0) return;
      if (options.json) io.write(await api.exportTrace({ serverId, seqs: messages.map((message) => message.seq) }));
      else for (const message of messages) io.out(traceLine(message));
    });
    return printing;
  };
  const watch = await api.watchTrace({ serverId });
  try {
    await print(watch.messages);
    if (!options.follow) {
      const failure = options.failure(statusOf(await api.listServers({}), serverId));
      if (failure === undefined) return 0;
      io.err(`atrium: ${failure}`);
      return 1;
    }
    let shown = statusOf(await api.listServers({}), serverId).kind;
    await new Promise<void>((resolve) => {
      const offs = [
        core.events.on('traceMessages', ({ serverId: id, messages, skipped }) => {
          if (id !== serverId) return;
          if (skipped) printing = printing.then(() => io.err(`atrium: ${skipped} more messages passed too fast to print here`));
          void print(messages);
        }),
        // A restart, a crash, a sign-in lost: said on stderr as it happens, between the messages it explains.
        core.events.on('serverChanged', (snapshot) => {
          if (snapshot.id !== serverId || snapshot.status.kind === shown) return;
          shown = snapshot.status.kind;
          const failure = options.failure(snapshot.status);
          printing = printing.then(() => io.err(`atrium: ${failure ?? `${visible(serverId)} is ${snapshot.status.kind}`}`));
        }),
      ];
      const renewal = setInterval(() => void api.renewTraceWatch({ watchId: watch.watchId }).catch(() => undefined), watch.renewWithinMs);
      const end = () => {
        offs.forEach((off) => off());
        clearInterval(renewal);
        resolve();
      };
      if (options.signal?.aborted) end();
      else options.signal?.addEventListener('abort', end, { once: true });
    });
    return 0;
  } finally {
    await api.unwatchTrace({ watchId: watch.watchId }).catch(() => undefined);
  }
}

function statusOf(servers: readonly ServerSnapshot[], serverId: string): ServerStatus {
  return servers.find((server) => server.id === serverId)?.status ?? { kind: 'stopped' };
}

/**
 * "14:03:07.215  ->  request       tools/call search_files   #5            142 B    3.10 ms  call 9f2c…": one
 * message. The method and subject name the server's tools and come from it: its hidden characters are marked.
 */
export function traceLine(message: TraceMessage): string {
  const what = `${message.method ?? (message.kind === 'error' ? 'error' : 'answer')}${message.subject !== undefined ? ` ${message.subject}` : ''}`;
  const id = message.id !== undefined ? `#${String(message.id)}` : '';
  const duration = message.durationMs !== undefined ? durationText(message.durationMs, { fine: true }) : '';
  const link = message.link ? `  call ${message.link.callId}${message.link.conversationId !== undefined ? ` in conversation ${message.link.conversationId}` : ''}` : '';
  const unanswered = message.unanswered ? `  ${UNANSWERED_WORDS[message.unanswered].short}` : '';
  const line = `${timeOfDay(message.at)}  ${message.direction === 'out' ? '->' : '<-'}  ${message.kind.padEnd(12)}  ${what.padEnd(32)}  ${id.padEnd(12)}  ${bytesText(message.bytes).padStart(8)}  ${duration.padStart(9)}${message.failed ? '  failed' : ''}${unanswered}${link}`;
  return visible(line.trimEnd());
}

function timeOfDay(at: number): string {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function bytesText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  return bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}


