// The SDK asks for a validator every time it needs to check a tool's structuredContent against its
// outputSchema. Compiling a JSON Schema is the expensive part and Ajv keeps every compiled schema, so a
// validator is compiled once per distinct schema text and reused: repeated tools/list of the same
// tools then costs no memory (SDK v1 grew 55 MB over 1,000 lists by recompiling).
//
// Two ways of checking, each with its own compiled schemas: `getValidator` stops at the first error (a
// server's output: large, and only fit or not matters), `errorsOf` collects every error with the schema
// it broke (what a person or a model typed: small, and each problem is said, with its field's description).

import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

const MAX_CACHED = 2_000;

const OLDER_DRAFTS = /json-schema\.org\/draft-0[4-7]\/schema/;

type Mode = 'first' | 'every';

const AJV_OPTIONS: Record<Mode, Options> = {
  first: { strict: false, allErrors: false, validateFormats: false },
  // `verbose` puts the broken (sub)schema on each error: where a field's description is.
  every: { strict: false, allErrors: true, verbose: true, validateFormats: false },
};

/** The compiled schemas of one way of checking, in the two dialects servers declare. */
class Compiler {
  private readonly options: Options;
  // Servers declare their dialect with `$schema`: 2020-12 (the MCP default) or, often, draft-07. Each Ajv
  // is made at the first schema of its dialect, not with the host (making one compiles its meta-schemas).
  private ajv2020Made: Ajv2020 | undefined;
  private ajvDraft07Made: Ajv | undefined;
  readonly compiled = new Map<string, ValidateFunction>();

  constructor(options: Options) {
    this.options = options;
  }

  get ajv2020(): Ajv2020 {
    return (this.ajv2020Made ??= new Ajv2020(this.options));
  }

  private get ajvDraft07(): Ajv {
    return (this.ajvDraft07Made ??= new Ajv(this.options));
  }

  compile(schema: JsonSchemaType): ValidateFunction {
    const key = JSON.stringify(schema);
    const hit = this.compiled.get(key);
    if (hit) return hit;
    if (this.compiled.size >= MAX_CACHED) {
      // Ajv holds every compiled schema internally, so bounding means starting over, not evicting one.
      this.ajv2020Made?.removeSchema();
      this.ajvDraft07Made?.removeSchema();
      this.compiled.clear();
    }
    // Compile a copy so a later mutation of the caller's object cannot desynchronise key and validator;
    // `$id`s are dropped because Ajv refuses a second schema with the same id, and `$schema` once it
    // has chosen the dialect.
    const { $id: _id, $schema, ...copy } = JSON.parse(key) as Record<string, unknown>;
    const ajv = typeof $schema === 'string' && OLDER_DRAFTS.test($schema) ? this.ajvDraft07 : this.ajv2020;
    const validate = ajv.compile(copy);
    this.compiled.set(key, validate);
    return validate;
  }
}

export class CachedSchemaValidator implements jsonSchemaValidator {
  private readonly compilers: Record<Mode, Compiler> = { first: new Compiler(AJV_OPTIONS.first), every: new Compiler(AJV_OPTIONS.every) };

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const validate = this.compilers.first.compile(schema);
    return (input: unknown) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: this.compilers.first.ajv2020.errorsText(validate.errors) };
  }

  /** Every way `input` breaks `schema`, each error with the (sub)schema it broke; undefined when it fits. */
  errorsOf(schema: JsonSchemaType, input: unknown): ErrorObject[] | undefined {
    const validate = this.compilers.every.compile(schema);
    return validate(input) ? undefined : [...(validate.errors ?? [])];
  }

  /** How many schemas are compiled for output checks. */
  get size(): number {
    return this.compilers.first.compiled.size;
  }
}
