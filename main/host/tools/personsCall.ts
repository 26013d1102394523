// A call the person makes themself — `atrium call`, any front end's callTool request — goes through the one
// pipeline like any other; here its outcome becomes the result, or an error a front end shows as one line
// (with the contract code the error carries).

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CallOutcome } from '../../chat/turnTools.ts';
import { ServerError } from '../../mcp/connection/serverError.ts';
import { ToolWithheldError } from '../approval/toolPins.ts';
import { InvalidArgumentsError } from '../invalidArguments.ts';
import { nearestWord } from '../../../shared/nearestWord.ts';

/** A tool the person may not call now, with why. */
export class ToolRefusedError extends Error {
  readonly code = 'failed';
}

/** The outcome once the call is over: a call that became a task is waited for to its end. */
export async function endedOutcome(outcome: CallOutcome): Promise<Exclude<CallOutcome, { kind: 'task' }>> {
  if (outcome.kind !== 'task') return outcome;
  const { tool, decision, startedAt } = outcome;
  const ending = await outcome.task.ended;
  return ending.kind === 'done' ? { kind: 'done', tool, decision, startedAt, result: ending.result } : { kind: ending.kind, tool, decision, startedAt, error: ending.error };
}

/** `toolNames`: the server's tools, for the one a slip of the name most likely meant. */
export function resultForPerson(outcome: Exclude<CallOutcome, { kind: 'task' }>, serverId: string, tool: string, toolNames: () => readonly string[] = () => []): CallToolResult {
  switch (outcome.kind) {
    case 'done':
      return outcome.result;
    case 'refused':
      if (outcome.error) throw outcome.error;
      if (outcome.because === 'unknown-tool') {
        const meant = nearestWord(tool, toolNames());
        throw new ServerError(serverId, 'not_found', `${serverId}: there is no tool named "${tool}"${meant ? `: did you mean "${meant}"?` : ''}`);
      }
      if (outcome.because === 'invalid-arguments') throw new InvalidArgumentsError(`${serverId}: tool "${tool}"`, outcome.problems ?? [{ field: '', message: outcome.message }]);
      if (outcome.tool?.changed) throw new ToolWithheldError(serverId, tool);
      throw new ToolRefusedError(outcome.message);
    case 'denied':
      throw new ToolRefusedError(outcome.decision.reason);
    case 'failed':
    case 'cancelled':
      throw outcome.error;
  }
}
