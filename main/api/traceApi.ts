// The trace's requests: watching a server's trace (its messages now, then `traceMessages` events), one
// message's contents, finding text in them, and exporting them as JSON Lines. The server's connection
// owns its trace; the hub keeps who watches.

import type { AtriumApi } from '../../shared/contract.ts';
import type { McpHub } from '../mcp/McpHub.ts';

type TraceApi = Pick<AtriumApi, 'watchTrace' | 'renewTraceWatch' | 'unwatchTrace' | 'getTraceMessage' | 'findInTrace' | 'exportTrace'>;

export function createTraceApi(hub: McpHub): TraceApi {
  return {
    watchTrace: async ({ serverId }) => hub.watchTrace(serverId),
    renewTraceWatch: async ({ watchId }) => hub.renewTraceWatch(watchId),
    unwatchTrace: async ({ watchId }) => {
      hub.unwatchTrace(watchId);
      return null;
    },
    getTraceMessage: async ({ serverId, seq }) => hub.get(serverId).trace.message(seq),
    findInTrace: async ({ serverId, text }) => hub.get(serverId).trace.find(text),
    exportTrace: async ({ serverId, seqs }) => hub.get(serverId).trace.exportLines(seqs),
  };
}
