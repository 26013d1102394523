// How Atrium checks data against its own JSON Schemas (servers.json entries, providers.json, the answers a
// window gives to pending requests, the contract's request params): compiled at first use, not at load,
// and not checked against the JSON Schema meta-schema at run time. Compiling the meta-schema costs about
// 50 ms per Ajv instance, more than the whole `atrium --help`; these schemas are ours, fixed at build
// time, and ownSchemas.test.ts compiles every one of them strictly against the meta-schema instead.
// Schemas from servers (tool input and output schemas, elicitation forms) are another matter: they are
// untrusted and are checked as they arrive (main/mcp/schemaValidatorCache.ts, shared/formAnswers.ts).
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';

export interface OwnSchemaOptions {
  /** Collect every error (a form learns about all its wrong fields at once), or stop at the first. */
  allErrors: boolean;
  /** Refuse keywords Ajv does not know and ambiguous types, as the contract's schemas are written to. */
  strict: boolean;
}

/** A validator that compiles its schema on its first call; `errors` is the last call's, as with Ajv's own. */
export interface OwnSchemaValidator {
  (data: unknown): boolean;
  readonly errors: ErrorObject[] | null | undefined;
}

/** Keywords of our own that the contract's schemas carry for people, not for validation. */
export const ownKeywords = ['patternHint'] as const;

const instances = new Map<string, Ajv>();

function ajvFor(options: OwnSchemaOptions): Ajv {
  const key = `${options.allErrors}/${options.strict}`;
  let ajv = instances.get(key);
  if (!ajv) {
    ajv = new Ajv({ ...options, validateSchema: false });
    ajv.addVocabulary([...ownKeywords]);
    instances.set(key, ajv);
  }
  return ajv;
}

export function ownSchemaValidator(schema: object, options: OwnSchemaOptions): OwnSchemaValidator {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    compiled ??= ajvFor(options).compile(schema);
    return compiled(data);
  };
  return Object.defineProperty(validate, 'errors', { get: () => compiled?.errors }) as OwnSchemaValidator;
}
