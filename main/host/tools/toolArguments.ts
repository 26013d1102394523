// The one check of a tool call's arguments against the tool's input schema, made before the call
// reaches the server: by the pipeline for every call, the model's (before the person is asked to approve
// it), a view's and the person's (`atrium call`, any front end's callTool request). Every problem is
// found at once, one per argument, in words that name the argument, with the description the tool gives
// it: whoever typed the arguments fixes them all in one go (InvalidArgumentsError says them).
import type { ErrorObject } from 'ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/client';
import type { ArgumentProblem } from '../../chat/turnTools.ts';
import type { CachedSchemaValidator } from '../../mcp/schemaValidatorCache.ts';
import { nearestWord } from '../../../shared/nearestWord.ts';

/** Every argument of `args` that does not fit `inputSchema`, or undefined when they all do. */
export function toolArgumentProblems(validator: Pick<CachedSchemaValidator, 'errorsOf'>, inputSchema: unknown, args: Record<string, unknown>): ArgumentProblem[] | undefined {
  // A null for an optional parameter is how many clients and models say "not given", and the transport
  // rules treat null and omitted alike (no Mcp-Param header): it is checked as omitted, and sent as given.
  const required = new Set((inputSchema as { required?: unknown }).required instanceof Array ? (inputSchema as { required: unknown[] }).required : []);
  const checked = Object.fromEntries(Object.entries(args).filter(([name, value]) => value !== null || required.has(name)));
  const errors = validator.errorsOf(inputSchema as JsonSchemaType, checked);
  if (errors === undefined) return undefined;
  // One problem per argument: the error of the outermost rule it broke (an "any of these forms" rather
  // than each form's own complaint).
  const outermost = new Map<string, ErrorObject>();
  for (const error of errors) {
    const field = fieldOf(error);
    const known = outermost.get(field);
    if (!known || error.schemaPath.split('/').length < known.schemaPath.split('/').length) outermost.set(field, error);
  }
  // In the order the tool lists its arguments (as a person reads them), arguments it does not take last.
  const order = Object.keys((inputSchema as { properties?: object }).properties ?? {});
  const rank = (field: string) => {
    const at = order.indexOf(field.split(/[.[]/)[0] ?? '');
    return at < 0 ? order.length : at;
  };
  return [...outermost]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([field, error]) => {
      const description = descriptionOf(error);
      return { field, message: `${problemSentence(field, error)}${slipHint(field, error, order, args)}`, ...(description ? { description } : {}) };
    });
}

/**
 * A top-level argument given under a slip of a name the tool takes: said where the missing one is (the
 * schema let the slip through) or where the slip is refused, with the name meant.
 */
function slipHint(field: string, error: ErrorObject, names: readonly string[], args: Record<string, unknown>): string {
  if (error.instancePath !== '') return '';
  if (error.keyword === 'additionalProperties') {
    const meant = nearestWord(field, names);
    return meant ? `: did you mean ${meant}?` : '';
  }
  if (error.keyword !== 'required') return '';
  const given = Object.keys(args).find((name) => !names.includes(name) && nearestWord(name, [field]) !== undefined);
  return given ? ` (${given} was given: did you mean ${field}?)` : '';
}

/** The argument an error is about, as a path of its keys: `path`, `options.depth`, `files[0]`. */
function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params['missingProperty']));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params['additionalProperty']));
  return segments.reduce((path, part) => (/^\d+$/.test(part) && path !== '' ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** What the schema says of the argument: its own description, or (for a missing one) the one its object gives it. */
function descriptionOf(error: ErrorObject): string | undefined {
  const parent = error.parentSchema as { description?: unknown; properties?: Record<string, { description?: unknown } | undefined> } | undefined;
  if (error.keyword === 'additionalProperties') return undefined;
  const described = error.keyword === 'required' ? parent?.properties?.[String(error.params['missingProperty'])]?.description : parent?.description;
  return typeof described === 'string' && described.trim() !== '' ? described : undefined;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

/** A sentence naming the argument and what is wrong with it. */
function problemSentence(field: string, error: ErrorObject): string {
  const name = field === '' ? 'the arguments' : field;
  const limit = String(error.params['limit']);
  switch (error.keyword) {
    case 'required':
      return `${name} is required`;
    case 'additionalProperties':
      return `${name} is not an argument this tool takes`;
    case 'type': {
      const types = ([] as unknown[]).concat(error.params['type']).map((type) => TYPE_WORDS[String(type)] ?? String(type));
      return `${name} must be ${types.join(' or ')}, not ${shown(error.data)}`;
    }
    case 'enum':
      return `${name} must be one of ${((error.params['allowedValues'] as unknown[] | undefined) ?? []).slice(0, 12).map(shown).join(', ')}`;
    case 'const':
      return `${name} must be ${shown(error.params['allowedValue'])}`;
    case 'minimum':
      return `${name} must be at least ${limit}`;
    case 'maximum':
      return `${name} must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `${name} must be more than ${limit}`;
    case 'exclusiveMaximum':
      return `${name} must be less than ${limit}`;
    case 'minLength':
      return `${name} needs at least ${limit} ${limit === '1' ? 'character' : 'characters'}`;
    case 'maxLength':
      return `${name} can have at most ${limit} characters`;
    case 'minItems':
      return `${name} needs at least ${limit} ${limit === '1' ? 'item' : 'items'}`;
    case 'maxItems':
      return `${name} can have at most ${limit} items`;
    case 'pattern':
      return `${name} must match the pattern ${String(error.params['pattern'])}`;
    case 'anyOf':
    case 'oneOf':
      return `${name} does not fit any of the forms it can take`;
    default:
      return `${name} ${error.message ?? 'does not fit'}`;
  }
}

/** A value as typed, short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
