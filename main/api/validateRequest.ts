// The gate every renderer request passes before it reaches the API implementation: the renderer is
// untrusted, so the method name and params are checked against the contract's JSON Schemas here.
import type { ErrorObject } from 'ajv';
import { requestNames, requestParamSchemas } from '../../shared/contract.ts';
import type { ApiErrorShape, FieldProblem, RequestName, RequestParams } from '../../shared/contract.ts';
import { contractCodes } from './personFacingErrors.ts';
import { readFieldProblems } from '../../shared/fieldProblems.ts';
import { ownSchemaValidator } from '../ownSchemas.ts';
import type { OwnSchemaValidator } from '../ownSchemas.ts';
import { sliceMarked } from '../../shared/serverText.ts';

export type ValidatedRequest = {
  [K in RequestName]: { ok: true; method: K; params: RequestParams<K> };
}[RequestName];

export type ValidationResult = ValidatedRequest | { ok: false; error: ApiErrorShape };

// Each request's schema is compiled at its first use (compiling all of them at load took a good part of
// the window's start). `strict` turns a malformed schema in the contract into an error — every one is
// compiled by ownSchemas.test.ts, so none reaches a person. Every error is collected, so a form learns
// about all its wrong fields at once; `patternHint` is the contract's wording of a pattern.
const validators = new Map<string, OwnSchemaValidator>(requestNames.map((name) => [name, ownSchemaValidator(requestParamSchemas[name], { allErrors: true, strict: true })]));

function validatorOf(method: unknown): OwnSchemaValidator | undefined {
  return typeof method === 'string' ? validators.get(method) : undefined;
}

export function validateRequest(method: unknown, params: unknown): ValidationResult {
  const validate = validatorOf(method);
  if (!validate) {
    const shown = typeof method === 'string' ? `"${method.slice(0, 100)}"` : 'a missing method name';
    return { ok: false, error: { code: 'unknown_method', message: `Atrium has no request called ${shown}.` } };
  }
  // Requests without params are common ({} is what every no-params schema expects).
  const value = params === undefined ? {} : params;
  if (validate(value)) {
    return { ok: true, method, params: value } as ValidatedRequest;
  }
  const errors = validate.errors ?? [];
  const fields = fieldProblemsOf(requestParamSchemas[method as RequestName], errors);
  if (fields.length > 0) return { ok: false, error: { code: 'invalid_params', message: fields.map((f) => f.message).join(' '), fields } };
  // No labelled field is at fault: the window itself sent a malformed request, so the wording is for its developers.
  const first = errors[0];
  const detail = first ? describeError(first) : 'they do not match the expected shape';
  return { ok: false, error: { code: 'invalid_params', message: `Invalid params for ${method}: ${detail}.` } };
}

interface LabelledField {
  /** The dotted key of the field, as FieldProblem.field. */
  field: string;
  title: string;
  schema: Record<string, unknown>;
  /** The error lies inside the field (an item of a list), not on the field itself. */
  inside: boolean;
}

/** Each labelled field at fault, once, with a sentence in the form's words. */
function fieldProblemsOf(root: object, errors: readonly ErrorObject[]): FieldProblem[] {
  const problems = new Map<string, FieldProblem>();
  for (const error of errors) {
    const segments = pathSegments(error.instancePath);
    if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: unknown }).missingProperty));
    const labelled = labelledFieldAt(root, segments);
    if (!labelled || problems.has(labelled.field)) continue;
    problems.set(labelled.field, { field: labelled.field, message: personMessage(error, labelled) });
  }
  return [...problems.values()];
}

/** The innermost schema along `segments` that has a `title`, and its field key. */
function labelledFieldAt(root: object, segments: readonly string[]): LabelledField | undefined {
  let schema: Record<string, unknown> | undefined = root as Record<string, unknown>;
  let found: Omit<LabelledField, 'inside'> | undefined;
  let depth = 0;
  for (const segment of segments) {
    const properties = schema['properties'] as Record<string, Record<string, unknown>> | undefined;
    schema = /^\d+$/.test(segment) ? (schema['items'] as Record<string, unknown> | undefined) : properties?.[segment];
    if (!schema) break;
    depth += 1;
    if (typeof schema['title'] === 'string') found = { field: segments.slice(0, depth).join('.'), title: schema['title'], schema };
  }
  return found ? { ...found, inside: segments.length > found.field.split('.').length } : undefined;
}

function personMessage(error: ErrorObject, { title, schema, inside }: LabelledField): string {
  const params = error.params as Record<string, unknown>;
  const hint = typeof schema['patternHint'] === 'string' ? schema['patternHint'] : undefined;
  if (inside) return `${title} has an entry that is empty or too long: check each one.`;
  switch (error.keyword) {
    case 'required':
      return `${title} is required${hint ? `: it ${hint}` : ''}.`;
    case 'minLength':
      return params['limit'] === 1 ? `${title} is required${hint ? `: it ${hint}` : ''}.` : `${title} needs at least ${String(params['limit'])} characters.`;
    case 'maxLength':
      return `${title} is too long: use at most ${String(params['limit'])} characters.`;
    case 'maxItems':
      return `${title} has too many entries: at most ${String(params['limit'])}.`;
    case 'pattern':
      return `${title} ${hint ?? 'is not in the expected form'}.`;
    default:
      return `${title} is not valid: choose or type it again.`;
  }
}

function pathSegments(instancePath: string): string[] {
  return instancePath ? instancePath.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')) : [];
}

function describeError(error: ErrorObject): string {
  const at = fieldName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${joinField(at, String(params.missingProperty))} is required`;
    case 'additionalProperties':
      return `${joinField(at, String(params.additionalProperty))} is not allowed`;
    case 'type':
      return `${at ?? 'params'} must be ${article(String(params.type))}`;
    case 'enum':
      return `${at ?? 'params'} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${at ?? 'params'} ${error.message ?? 'is invalid'}`;
  }
}

/** `/ref/name` → `ref.name`; `/roots/0/uri` → `roots[0].uri`; the root → undefined. */
function fieldName(instancePath: string): string | undefined {
  if (!instancePath) return undefined;
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function joinField(parent: string | undefined, child: string): string {
  return `"${parent ? `${parent}.${child}` : child}"`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}


const maxMessageLength = 2_000;

/**
 * Turns anything an API implementation throws into an error a person can read: the message only, cut
 * before any stack trace, with the error's own `code` when it is one of the contract's codes.
 */
export function toApiError(error: unknown): ApiErrorShape {
  if (typeof error === 'object' && error !== null) {
    const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
    const text = typeof message === 'string' ? readable(message) : '';
    const known = typeof code === 'string' && contractCodes.has(code) ? (code as ApiErrorShape['code']) : undefined;
    const fallback =
      name === 'AbortError' ? 'cancelled' : name === 'TimeoutError' ? 'timeout' : ('failed' as const);
    const fields = readFieldProblems((error as { fields?: unknown }).fields);
    const { dataFile } = error as { dataFile?: unknown };
    return {
      code: known ?? fallback,
      message: text || 'Something went wrong in Atrium.',
      ...(fields ? { fields } : {}),
      ...(typeof dataFile === 'string' && dataFile !== '' ? { dataFile } : {}),
    };
  }
  if (typeof error === 'string' && readable(error)) return { code: 'failed', message: readable(error) };
  return { code: 'failed', message: 'Something went wrong in Atrium.' };
}

function readable(message: string): string {
  // A message that embeds a stack ("…\n    at fn (file:1:2)") keeps only the part before it.
  const beforeStack = message.split(/\n\s+at\s/)[0] ?? '';
  const trimmed = beforeStack.trim();
  return trimmed.length > maxMessageLength ? `${sliceMarked(trimmed, maxMessageLength)}…` : trimmed;
}
