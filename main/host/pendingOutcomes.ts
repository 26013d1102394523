// The shapes a person's answer to each kind of pending request must have. A front end sends the answer
// as JSON over IPC or the bridge; a malformed one is refused with a clear message and the request stays
// open, so a buggy dialog can never turn into a silent "allow" or a half-filled sampling request.

import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';

const ajv = new Ajv({ allErrors: false, strict: false });

/** A `check` for PendingRequests: undefined when the answer fits the schema, else what is wrong. */
export function outcomeChecker(schema: object, what: string): (outcome: unknown) => string | undefined {
  const validate = ajv.compile(schema);
  return (outcome) => (validate(outcome) ? undefined : `this ${what} answer is invalid: ${describeAjvError(validate.errors?.[0])}`);
}

export function describeAjvError(error: ErrorObject | undefined | null): string {
  if (!error) return 'it does not match';
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : 'the answer';
  if (error.keyword === 'additionalProperties') return `${where} has an unexpected field "${String(error.params['additionalProperty'])}"`;
  if (error.keyword === 'enum') return `${where} must be one of ${(error.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

export const toolApprovalOutcomeSchema = {
  type: 'object',
  required: ['effect', 'scope', 'target'],
  properties: {
    effect: { enum: ['allow', 'deny'] },
    scope: { enum: ['once', 'conversation', 'always'] },
    target: { enum: ['tool', 'server'] },
  },
  additionalProperties: false,
} as const;

const samplingMessage = {
  type: 'object',
  required: ['role', 'text'],
  properties: { role: { enum: ['user', 'assistant'] }, text: { type: 'string', maxLength: 1_000_000 } },
  additionalProperties: false,
} as const;

/** Approve (optionally edited) or reject a server's sampling request, before any model runs. */
export const samplingRequestOutcomeSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['action'],
      properties: {
        action: { const: 'approve' },
        /** Replaces the request's messages (text only: what a person can edit in a dialog). */
        messages: { type: 'array', minItems: 1, maxItems: 1000, items: samplingMessage },
        systemPrompt: { type: 'string', maxLength: 1_000_000 },
        maxTokens: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        model: { type: 'string', minLength: 1, maxLength: 200 },
        /** The person's explicit consent to the context the server asked for (includeContext). */
        shareContext: { type: 'boolean' },
      },
      additionalProperties: false,
    },
    { type: 'object', required: ['action'], properties: { action: { const: 'reject' } }, additionalProperties: false },
  ],
} as const;

/** Send (optionally edited) or withhold the model's reply, after the person has read it. */
export const samplingResultOutcomeSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['action'],
      properties: { action: { const: 'send' }, text: { type: 'string', maxLength: 1_000_000 } },
      additionalProperties: false,
    },
    { type: 'object', required: ['action'], properties: { action: { const: 'reject' } }, additionalProperties: false },
  ],
} as const;

export const elicitationOutcomeSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['action'],
      properties: { action: { const: 'accept' }, content: { type: 'object' } },
      additionalProperties: false,
    },
    { type: 'object', required: ['action'], properties: { action: { enum: ['decline', 'cancel'] } }, additionalProperties: false },
  ],
} as const;
