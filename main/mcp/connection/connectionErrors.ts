// Errors a person can meet when talking to a server, as values with a sentence that names the server
// and the cause. Front ends print `message` as-is; nothing here is a stack trace.

import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { ServerError } from './serverError.ts';
import { MESSAGE_TOO_LARGE, MessageTooLargeError } from '../oversizedMessage.ts';
import { findAuthorizationFailure } from './remoteAuthorization.ts';
import { durationText } from '../../../shared/durationText.ts';

/** Turns whatever a request threw into a ServerError naming the server. */
export function toServerError(serverId: string, error: unknown, context: { closedReason?: string; what?: string; address?: string } = {}): ServerError {
  if (error instanceof ServerError) return error;
  if (isUnreachable(error)) {
    const where = context.address ? ` at ${context.address}` : '';
    return new ServerError(
      serverId,
      'unavailable',
      `${serverId}: could not reach the server${where}. Check that the address is right, that the server is running, and that this computer is online.`,
      { cause: error },
    );
  }
  // The sign-in's own sentence (it names the server) says more than the SDK's wrapping of it.
  const authorization = findAuthorizationFailure(error);
  if (authorization) return new ServerError(serverId, 'unauthorized', authorization.message, { cause: error });
  const what = context.what ? `${context.what}: ` : '';
  // SdkHttpError is an SdkError, so it is recognised first.
  if (error instanceof SdkHttpError) {
    return new ServerError(serverId, 'unavailable', `${serverId}: ${what}HTTP ${error.status} ${error.message}`.trim(), { cause: error });
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return new ServerError(serverId, 'timeout', `${serverId}: ${what}no answer within the time limit (${timeoutOf(error)})`, { cause: error });
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.SendFailed:
        return new ServerError(serverId, 'unavailable', `${serverId}: ${what}${context.closedReason ?? 'the connection to the server was closed'}`, { cause: error });
      default:
        return new ServerError(serverId, 'protocol', `${serverId}: ${what}${error.message}`, { cause: error });
    }
  }
  // Over stdio and in an event stream the request gets an error answer; a JSON answer's read fails itself.
  if ((error instanceof ProtocolError && error.code === MESSAGE_TOO_LARGE) || error instanceof MessageTooLargeError) {
    return new ServerError(serverId, 'protocol', `${serverId}: ${what}the server's answer was too large: ${error.message}`, { cause: error });
  }
  if (error instanceof ProtocolError) {
    return new ServerError(serverId, 'protocol', `${serverId}: ${what}the server answered with an error: ${withoutCodePrefix(error.message)}`, { cause: error });
  }
  if (isAbort(error)) return new ServerError(serverId, 'cancelled', `${serverId}: ${what}cancelled`, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new ServerError(serverId, 'failed', `${serverId}: ${what}${message}`, { cause: error });
}

const unreachableCodes: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

/** Nothing answered at a remote server's address: fetch's "fetch failed" (and its network code), however deeply the SDK wrapped it. */
function isUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && unreachableCodes.has(code)) return true;
    if (current instanceof TypeError && message === 'fetch failed') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The limit the request ran out of, as a person says it ("1 min", not "60000 ms"). */
function timeoutOf(error: SdkError): string {
  const ms = (error.data as { timeout?: number } | undefined)?.timeout;
  return typeof ms === 'number' ? durationText(ms) : 'timeout';
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || /aborted/i.test(error.message));
}

/**
 * A server's error message without the "MCP error -32602: " that servers built on the first SDK put before
 * their own words: a code for programs, kept in the error (and the trace), not in the sentence a person reads.
 */
function withoutCodePrefix(message: string): string {
  const words = message.replace(/^MCP error -?\d+:\s*/, '');
  return words === '' ? message : words;
}
