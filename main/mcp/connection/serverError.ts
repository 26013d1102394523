// The error a person meets when talking to a server: a sentence that names the server and the cause,
// and its kind. Its own module, free of the SDK, so the API and the hub can know it without loading the
// connection code (connectionErrors.ts turns what the SDK throws into one).
import type { ApiErrorShape } from '../../../shared/contract.ts';
import { markHidden } from '../../../shared/serverText.ts';

export type ServerErrorKind = 'unavailable' | 'timeout' | 'cancelled' | 'protocol' | 'not_found' | 'unauthorized' | 'failed';

export class ServerError extends Error {
  readonly serverId: string;
  readonly kind: ServerErrorKind;

  constructor(serverId: string, kind: ServerErrorKind, message: string, options?: { cause?: unknown }) {
    // A message may quote what a server sent outside JSON-RPC (an HTTP error body, a process's words);
    // what it quotes of a message already marked stays as it was.
    super(markHidden(message), options);
    this.name = 'ServerError';
    this.serverId = serverId;
    this.kind = kind;
  }

  /** The code front ends receive with the message (see toApiError). */
  get code(): ApiErrorShape['code'] {
    return apiCodes[this.kind];
  }
}

const apiCodes: Record<ServerErrorKind, ApiErrorShape['code']> = {
  unavailable: 'server_unavailable',
  timeout: 'timeout',
  cancelled: 'cancelled',
  not_found: 'not_found',
  unauthorized: 'unauthorized',
  protocol: 'failed',
  failed: 'failed',
};
