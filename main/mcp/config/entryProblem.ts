// What is wrong with a servers.json entry, from the validator's errors: the field as the person wrote it
// and a sentence in the words of someone editing the file, never a schema's ("must NOT have fewer than 1
// characters"). One problem per entry: the error that says most.
import type { ErrorObject } from 'ajv';

/** The field at fault and what is wrong with it, for the entry's one problem. */
export function entryProblem(errors: readonly ErrorObject[]): [field: string, message: string] {
  const error = telling(errors);
  return [fieldOf(error), describe(error)];
}

function fieldOf(error: ErrorObject | undefined): string {
  if (!error) return '(entry)';
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  return path || '(entry)';
}

/**
 * The error that says most: the deepest field at fault (inside a list, the entry itself), and for a field
 * that may take one of several forms, the one sentence naming them rather than each form's complaint.
 */
function telling(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const depth = (error: ErrorObject) => error.instancePath.split('/').length;
  return [...errors].sort((a, b) => depth(b) - depth(a) || Number(b.keyword === 'oneOf') - Number(a.keyword === 'oneOf'))[0];
}

/** What is wrong with a field, in the words of someone editing servers.json, not a schema's. */
function describe(error: ErrorObject | undefined): string {
  if (!error) return 'is invalid';
  const params = error.params as Record<string, unknown>;
  const limit = String(params['limit'] ?? '');
  const what = (() => {
    switch (error.keyword) {
      case 'type':
        return `must be ${KIND_IN_WORDS[String(params['type'])] ?? String(params['type'])}`;
      case 'minLength':
        return limit === '1' ? 'must not be empty' : `must be at least ${limit} characters long`;
      case 'maxLength':
        return `must be at most ${limit} characters long`;
      case 'minimum':
        return `must be at least ${limit}`;
      case 'maximum':
        return `must be at most ${limit}`;
      case 'exclusiveMinimum':
        return `must be more than ${limit}`;
      case 'maxItems':
        return `must list at most ${limit} entries`;
      case 'enum':
        return `must be one of ${(params['allowedValues'] as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
      case 'required':
        return `needs "${String(params['missingProperty'])}"`;
      case 'additionalProperties':
        return `has a field Atrium does not know: "${String(params['additionalProperty'])}"`;
      case 'const':
      case 'oneOf':
        return fieldOf(error).startsWith('sandbox')
          ? 'must be false (no sandbox) or an object saying what more it may reach ("filesystem", "network")'
          : 'must be "all" or a list of tool names';
      default:
        return 'is not in a form Atrium understands: see the README for the servers.json fields';
    }
  })();
  return `${fieldInWords(fieldOf(error))} ${what}`;
}

/** The field as a person reads it: `"env.PORT"`, and a place in a list as a count: `item 2 of "args"`. */
function fieldInWords(field: string): string {
  const place = /^(.+)\.(\d+)$/.exec(field);
  return place ? `item ${Number(place[2]) + 1} of "${place[1]}"` : `"${field}"`;
}

const KIND_IN_WORDS: Record<string, string> = {
  string: 'text (in quotes)',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  array: 'a list ([…])',
  object: 'an object ({…})',
};
