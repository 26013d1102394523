// The seams through which a server's requests reach the person. Connections never decide these
// themselves: the host injects brokers, and the front end in use (CLI flags now, consent dialogs
// later) settles them. The default answers are the safe ones: decline elicitation, refuse sampling.

import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import type { ServerId } from '../../shared/domain.ts';

export interface BrokerRequest<P> {
  serverId: ServerId;
  params: P;
  /** Aborted when the server cancels or disconnects: the pending request must be withdrawn. */
  signal: AbortSignal;
}

export type SamplingParams = CreateMessageRequest['params'];
export type ElicitationParams = ElicitRequest['params'];

export interface SamplingBroker {
  createMessage(request: BrokerRequest<SamplingParams>): Promise<CreateMessageResult>;
}

export interface ElicitationBroker {
  elicit(request: BrokerRequest<ElicitationParams>): Promise<ElicitResult>;
}

/** Thrown by a broker when the person (or policy) refuses; becomes a JSON-RPC error to the server. */
export class RequestRefusedError extends Error {}

/** Thrown by a broker when the server's request itself is malformed; becomes an InvalidParams error. */
export class InvalidServerRequestError extends Error {}

export const refuseSampling: SamplingBroker = {
  createMessage: async ({ serverId }) => {
    throw new RequestRefusedError(`Sampling request from "${serverId}" was declined: no one approved it`);
  },
};

export type ElicitationAnswer = { action: 'decline' } | { action: 'cancel' } | { action: 'accept'; content: Record<string, unknown> };

/** Answers every elicitation the same way: what the CLI's `--elicit` flag asks for. */
export function fixedElicitation(answer: ElicitationAnswer): ElicitationBroker {
  return { elicit: async () => ({ ...answer }) as ElicitResult };
}

export const declineElicitation = fixedElicitation({ action: 'decline' });
