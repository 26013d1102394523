// The check of a person's answer to each kind of pending request against its shape (the shapes are the
// contract's: shared/pendingPayloads.ts). A front end sends the answer as JSON over IPC or the bridge; a
// malformed one is refused with a clear message and the request stays open, so a buggy dialog can never
// turn into a silent "allow" or a half-filled sampling request.

import type { ErrorObject } from 'ajv';
import { ownSchemaValidator } from '../ownSchemas.ts';

/**
 * A `check` for PendingRequests: undefined when the answer fits the schema, else what is wrong. The
 * schema is compiled at the first answer, not when the host starts (most runs answer none of a kind).
 */
export function outcomeChecker(schema: object, what: string): (outcome: unknown) => string | undefined {
  const validate = ownSchemaValidator(schema, { allErrors: false, strict: false });
  return (outcome) => {
    return validate(outcome) ? undefined : `this ${what} answer is invalid: ${describeAjvError(validate.errors?.[0])}`;
  };
}

export function describeAjvError(error: ErrorObject | undefined | null): string {
  if (!error) return 'it does not match';
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : 'the answer';
  if (error.keyword === 'additionalProperties') return `${where} has an unexpected field "${String(error.params['additionalProperty'])}"`;
  if (error.keyword === 'enum') return `${where} must be one of ${(error.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}
