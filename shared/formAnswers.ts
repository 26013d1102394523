// The check of a person's answer to a server's form, in the words of the form: one problem per field,
// each naming the field by the title the person sees. The host makes it on every answer before it goes
// back to the server (main/host/elicitation/); a front end may make it as each field is typed (the
// terminal does), so both say the same thing.

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FieldProblem } from './fieldProblems.ts';

// Forms are checked with every error collected, so the person learns about all wrong fields at once.
// Made at the first form, not at load: most runs see none.
let formAjvMade: Ajv2020 | undefined;
/** The one Ajv for servers' forms (JSON Schema 2020-12, the formats a form may use): their answers, and the host's check of a form itself. */
export function formAjv(): Ajv2020 {
  if (!formAjvMade) {
    formAjvMade = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(formAjvMade, ['email', 'uri', 'date', 'date-time']);
  }
  return formAjvMade;
}

const compiled = new Map<string, ValidateFunction>();

/**
 * What is wrong with `content` as an answer to the form, one problem per field, each naming the field
 * by the title the person sees; undefined when the answer fits.
 */
export function checkAnswer(requestedSchema: object, content: unknown): FieldProblem[] | undefined {
  const key = JSON.stringify(requestedSchema);
  let validate = compiled.get(key);
  if (!validate) {
    // The form is already known to be flat, so nothing in it can reach beyond it ($ref, remote schemas).
    validate = formAjv().compile({ ...requestedSchema, additionalProperties: false });
    if (compiled.size > 500) compiled.clear();
    compiled.set(key, validate);
  }
  if (validate(content)) return undefined;
  const properties = ((requestedSchema as { properties?: Record<string, { title?: string }> }).properties ?? {});
  const problems = new Map<string, FieldProblem>();
  for (const error of validate.errors ?? []) {
    const name = fieldOfError(error);
    if (problems.has(name)) continue;
    const field = Object.hasOwn(properties, name) ? properties[name] : undefined;
    problems.set(name, { field: name, message: answerProblem(error, field ? (field.title ?? name) : undefined, name) });
  }
  return problems.size > 0 ? [...problems.values()] : [{ field: '', message: 'The answer does not fit the form.' }];
}

function fieldOfError(error: ErrorObject): string {
  if (error.keyword === 'required') return String(error.params['missingProperty']);
  if (error.keyword === 'additionalProperties') return String(error.params['additionalProperty']);
  return (error.instancePath.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

const formatWords: Record<string, string> = {
  email: 'an email address, like ada@example.com',
  uri: 'a web address, like https://example.com',
  date: 'a date',
  'date-time': 'a date and time',
};

const typeWords: Record<string, string> = { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'yes or no', array: 'a list of choices' };

/** A sentence about one field, naming it as the form shows it (`label`). */
function answerProblem(error: ErrorObject, label: string | undefined, name: string): string {
  if (label === undefined) return `"${name}" is not a field of this form.`;
  const limit = String(error.params['limit']);
  switch (error.keyword) {
    case 'required':
      return `${label} is required: fill it in.`;
    case 'format':
      return `${label} must be ${formatWords[String(error.params['format'])] ?? 'in the expected form'}.`;
    case 'minimum':
      return `${label} must be at least ${limit}.`;
    case 'maximum':
      return `${label} must be at most ${limit}.`;
    case 'exclusiveMinimum':
      return `${label} must be more than ${limit}.`;
    case 'exclusiveMaximum':
      return `${label} must be less than ${limit}.`;
    case 'minLength':
      return `${label} needs at least ${limit} ${limit === '1' ? 'character' : 'characters'}.`;
    case 'maxLength':
      return `${label} can have at most ${limit} characters.`;
    case 'minItems':
      return `${label}: choose at least ${limit}.`;
    case 'maxItems':
      return `${label}: choose at most ${limit}.`;
    case 'type':
      return `${label} must be ${typeWords[String(error.params['type'])] ?? 'of another kind'}.`;
    case 'enum':
    case 'const':
    case 'oneOf':
    case 'anyOf':
      return `${label}: choose one of the options offered.`;
    default:
      return `${label} is not valid: check what you typed.`;
  }
}

