// The gate every renderer request passes before it reaches the API implementation: the renderer is
// untrusted, so the method name and params are checked against the contract's JSON Schemas here.
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { requestNames, requestParamSchemas } from '../../shared/contract.ts';
import type { ApiErrorShape, RequestName, RequestParams } from '../../shared/contract.ts';

export type ValidatedRequest = {
  [K in RequestName]: { ok: true; method: K; params: RequestParams<K> };
}[RequestName];

export type ValidationResult = ValidatedRequest | { ok: false; error: ApiErrorShape };

// One instance, every schema compiled once at load: `strict` turns a malformed schema in the contract
// into a startup failure instead of a silently permissive check.
const ajv = new Ajv({ allErrors: false, strict: true });
const validators = new Map<string, ValidateFunction>(
  requestNames.map((name) => [name, ajv.compile(requestParamSchemas[name])]),
);

export function validateRequest(method: unknown, params: unknown): ValidationResult {
  const validate = typeof method === 'string' ? validators.get(method) : undefined;
  if (!validate) {
    const shown = typeof method === 'string' ? `"${method.slice(0, 100)}"` : 'a missing method name';
    return { ok: false, error: { code: 'unknown_method', message: `Atrium has no request called ${shown}.` } };
  }
  // Requests without params are common ({} is what every no-params schema expects).
  const value = params === undefined ? {} : params;
  if (validate(value)) {
    return { ok: true, method, params: value } as ValidatedRequest;
  }
  const first = validate.errors?.[0];
  const detail = first ? describeError(first) : 'they do not match the expected shape';
  return { ok: false, error: { code: 'invalid_params', message: `Invalid params for ${method}: ${detail}.` } };
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

const apiErrorCodes: ReadonlySet<string> = new Set<ApiErrorShape['code']>([
  'invalid_params',
  'unknown_method',
  'not_found',
  'server_unavailable',
  'unauthorized',
  'timeout',
  'cancelled',
  'failed',
]);

const maxMessageLength = 2_000;

/**
 * Turns anything an API implementation throws into an error a person can read: the message only, cut
 * before any stack trace, with the error's own `code` when it is one of the contract's codes.
 */
export function toApiError(error: unknown): ApiErrorShape {
  if (typeof error === 'object' && error !== null) {
    const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
    const text = typeof message === 'string' ? readable(message) : '';
    const known = typeof code === 'string' && apiErrorCodes.has(code) ? (code as ApiErrorShape['code']) : undefined;
    const fallback =
      name === 'AbortError' ? 'cancelled' : name === 'TimeoutError' ? 'timeout' : ('failed' as const);
    return { code: known ?? fallback, message: text || 'Something went wrong in Atrium.' };
  }
  if (typeof error === 'string' && readable(error)) return { code: 'failed', message: readable(error) };
  return { code: 'failed', message: 'Something went wrong in Atrium.' };
}

function readable(message: string): string {
  // A message that embeds a stack ("…\n    at fn (file:1:2)") keeps only the part before it.
  const beforeStack = message.split(/\n\s+at\s/)[0] ?? '';
  const trimmed = beforeStack.trim();
  return trimmed.length > maxMessageLength ? `${trimmed.slice(0, maxMessageLength)}…` : trimmed;
}
