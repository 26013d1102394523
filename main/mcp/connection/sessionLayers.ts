// How the SDK Client sees a server: through four layers over its transport, each with one job, in this
// order from the wire up: the trace (every message as it travelled), the tool list screen (a tool that
// breaks the protocol's shape left out, not the whole list), the neutraliser (every message marked), then
// the tool-call channel (which keeps the answers to its own calls). A new layer goes here, in its place.

import type { Transport } from '@modelcontextprotocol/client';
import type { ServerLog } from '../serverLog.ts';
import { TracingTransport } from '../trace/tracingTransport.ts';
import type { ServerTrace } from '../trace/serverTrace.ts';
import { NeutralisingTransport } from './neutralisingTransport.ts';
import { ToolCallChannel } from './toolCallChannel.ts';
import { ToolListScreen } from './toolListScreen.ts';

/** The layers over `transport`; the outermost, the channel the Client connects to, is returned. */
export function sessionLayers(transport: Transport, trace: ServerTrace, log: Pick<ServerLog, 'add'>, onToolsChangeAnnounced: () => void): ToolCallChannel {
  const traced = new TracingTransport(transport, trace);
  const neutralised = new NeutralisingTransport(new ToolListScreen(traced, log), log, onToolsChangeAnnounced);
  return new ToolCallChannel(neutralised, (text, mistake) => log.add(mistake ? 'warning' : 'debug', 'host', text));
}
