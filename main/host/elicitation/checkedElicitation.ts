// A front end's own elicitation broker (the CLI's fixed `--elicit` answer) held to the same rules as
// the person's dialog: the form must be one the specification allows, untouched fields take their
// defaults, a page to open must pass the URL policy, and an answer that does not fit the form is never sent to the server.

import type { ElicitationBroker } from '../../mcp/connection/connectionServices.ts';
import { applyElicitationDefaults } from './elicitationDefaults.ts';
import { checkAnswer } from '../../../shared/formAnswers.ts';
import { readForm } from './elicitationForm.ts';
import { offeredPage } from './personElicitation.ts';

export class UnfitAnswerError extends Error {}

export function checkedElicitation(broker: ElicitationBroker): ElicitationBroker {
  return {
    elicit: async (request) => {
      const { params } = request;
      if (!('requestedSchema' in params)) {
        if ('url' in params) await offeredPage(params.url);
        return broker.elicit(request);
      }
      readForm(params.requestedSchema);
      const result = applyElicitationDefaults(params, await broker.elicit(request));
      if (result.action !== 'accept') return result;
      const problem = checkAnswer(params.requestedSchema, result.content ?? {});
      if (problem !== undefined) throw new UnfitAnswerError(`Atrium did not send the fixed answer: ${problem.map((p) => p.message).join(' ')}`);
      return result;
    },
  };
}
