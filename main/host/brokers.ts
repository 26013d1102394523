// The fixed answers a host can give a server's requests without asking anyone: the safe defaults
// (decline elicitation, refuse sampling) and the CLI's `--elicit` answer. The broker seams themselves
// belong to the connection side (main/mcp/connection/connectionServices.ts).

import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationAnswer } from '../../shared/pendingPayloads.ts';
import type { ElicitationBroker, SamplingBroker } from '../mcp/connection/connectionServices.ts';
import { RequestRefusedError } from '../mcp/connection/connectionServices.ts';

export const refuseSampling: SamplingBroker = {
  createMessage: async ({ serverId }) => {
    throw new RequestRefusedError(`Sampling request from "${serverId}" was declined: no one approved it`);
  },
};

/** Answers every elicitation the same way: what the CLI's `--elicit` flag asks for. */
export function fixedElicitation(answer: ElicitationAnswer): ElicitationBroker {
  return { elicit: async () => ({ ...answer }) as ElicitResult };
}

export const declineElicitation = fixedElicitation({ action: 'decline' });
