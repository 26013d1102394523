// A server's elicitation put to the person as a pending request. Form mode: the form is checked (flat
// primitives only), shown as fields with secret-looking ones flagged, and the answer is checked against
// the form before it goes back; an answer that does not fit is refused and the request stays open.
// URL mode: the person sees the whole URL and its domain; Atrium never fetches it, and opens it only
// once the person accepts. Both eras' requests (elicitation/create and input_required) arrive here.

import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationFormPayload, ElicitationPayload, ElicitationUrlPayload } from '../../../shared/pendingPayloads.ts';
import type { ElicitationBroker, ElicitationParams } from '../../mcp/connection/connectionServices.ts';
import { RequestRefusedError } from '../../mcp/connection/connectionServices.ts';
import { applyElicitationDefaults } from './elicitationDefaults.ts';
import { elicitationOutcomeSchema } from '../../../shared/pendingPayloads.ts';
import { outcomeChecker } from '../pendingOutcomes.ts';
import type { PendingRequests } from '../pendingRequests.ts';
import type { OfferedAddress } from '../../../shared/offeredAddress.ts';
import { RateLimiter } from '../rateLimiter.ts';
import { checkAnswer } from '../../../shared/formAnswers.ts';
import { InvalidFormError, maskSecrets, readForm } from './elicitationForm.ts';
import { questionTask } from '../../mcp/extensions/tasks/host/taskQuestions.ts';
import type { TaskOfQuestion } from '../../mcp/extensions/tasks/host/taskQuestions.ts';

export type { ElicitationFormPayload, ElicitationPayload, ElicitationUrlPayload };

export interface PersonElicitationDeps extends TaskOfQuestion {
  pending: PendingRequests;
  /** The conversation whose tool call the server is serving, so the request is shown in it. */
  conversationFor(serverId: string): string | undefined;
  /**
   * Opens an accepted URL for the person (the system browser in Electron, the terminal's text in the CLI);
   * `note` writes to the server's log.
   */
  openUrl(url: string, serverId: string, note?: (text: string, level?: 'info' | 'notice') => void): void;
  /** Requests per server per minute before the server is refused, so it cannot flood the person. */
  perMinuteLimit?: number;
}

const checkShape = outcomeChecker(elicitationOutcomeSchema, 'elicitation');

export function createPersonElicitation(deps: PersonElicitationDeps): ElicitationBroker {
  const limiter = new RateLimiter(deps.perMinuteLimit ?? 20, 60_000);
  return {
    elicit: async ({ serverId, params, signal, note }) => {
      if (!limiter.take(serverId)) throw new RequestRefusedError(`Atrium refused the request: more than ${limiter.limit} elicitations from "${serverId}" in a minute`);
      // A task's question is asked in the task's conversation, however long after its turn, and names it.
      const { task, conversationId = deps.conversationFor(serverId) } = questionTask(deps, serverId, params);
      const common = { signal, ...(conversationId ? { conversationId } : {}), ...(task ? { task } : {}) };
      if ('url' in params && params.mode === 'url') {
        const payload = await urlPayload(params);
        const answer = await deps.pending.request<'elicitation', ElicitResult>('elicitation', serverId, payload, {
          ...common,
          check: (outcome) => checkShape(outcome) ?? ((outcome as ElicitResult).action === 'accept' && (outcome as ElicitResult).content ? 'a URL elicitation is accepted without content' : undefined),
        });
        if (answer.action === 'accept') deps.openUrl(payload.url, serverId, note);
        return { action: answer.action };
      }
      const formParams = params as Extract<ElicitationParams, { requestedSchema: unknown }>;
      const fields = readForm(formParams.requestedSchema);
      const payload: ElicitationFormPayload = {
        mode: 'form',
        message: formParams.message,
        fields,
        requestedSchema: formParams.requestedSchema,
        asksForSecrets: fields.some((f) => f.secretLooking),
      };
      const answer = await deps.pending.request<'elicitation', ElicitResult>('elicitation', serverId, payload, {
        ...common,
        check: (outcome) => {
          const shape = checkShape(outcome);
          if (shape !== undefined) return shape;
          const result = outcome as ElicitResult;
          if (result.action !== 'accept') return undefined;
          // Untouched fields take their defaults, so a form accepted as shown is valid when its defaults are.
          return checkAnswer(formParams.requestedSchema, applyElicitationDefaults(formParams, { action: 'accept', content: result.content ?? {} }).content);
        },
        redact: (result) => (result.action === 'accept' ? { ...result, content: maskSecrets(fields, result.content ?? {}) } : result),
      });
      return answer.action === 'accept' ? applyElicitationDefaults(formParams, { action: 'accept', content: answer.content ?? {} }) : { action: answer.action };
    },
  };
}

async function urlPayload(params: Extract<ElicitationParams, { mode: 'url' }>): Promise<ElicitationUrlPayload> {
  const address = await offeredPage(params.url);
  return {
    mode: 'url',
    message: params.message,
    url: address.href,
    // The registrable domain (Public Suffix List) in punycode, so a look-alike Unicode name shows as what it is.
    domain: address.registrableDomain,
    ...(params.elicitationId ? { elicitationId: params.elicitationId } : {}),
  };
}

/**
 * The page of a URL-mode elicitation, judged by the sign-in URL policy: https (http only to this
 * computer), no private, link-local or metadata address, no credentials. Every elicitation broker
 * (the person's dialog, the CLI's fixed answer) asks this first. The judge is loaded at the first such
 * request, not with the host: the Public Suffix List it holds (tldts) takes a good part of a CLI start.
 */
export async function offeredPage(url: string): Promise<OfferedAddress> {
  const { checkOfferedAddress } = await import('../../../shared/offeredAddress.ts');
  const verdict = checkOfferedAddress(url);
  if (!verdict.ok) throw new InvalidFormError(`Atrium refused to offer the address "${url.slice(0, 200)}": ${verdict.reason}`);
  return verdict.address;
}
