// Which errors are a person's to read and act on (a missing provider, a server that is not there, a
// tool that changed), as opposed to a fault in Atrium. Every such error carries one of the contract's
// codes (ApiErrorShape['code']), which the window receives; a front end without a window (the CLI)
// prints it as one line, in its own words where the error has them (`commandLine`), instead of a stack.

import type { ApiErrorShape } from '../../shared/contract.ts';

export const contractCodes: ReadonlySet<string> = new Set<ApiErrorShape['code']>([
  'invalid_params',
  'unknown_method',
  'not_found',
  'server_unavailable',
  'unauthorized',
  'timeout',
  'cancelled',
  'failed',
]);

export function isPersonFacing(error: unknown): error is Error & { code: ApiErrorShape['code'] } {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return error instanceof Error && typeof code === 'string' && contractCodes.has(code);
}

/** The error's sentence for a command line: its `commandLine` words where it has them (flags, files), else its message. */
export function commandLineText(error: Error): string {
  const words = (error as { commandLine?: unknown }).commandLine;
  return typeof words === 'string' ? words : error.message;
}
