// The SDK asks for a validator every time it needs to check a tool's structuredContent against its
// outputSchema. Compiling a JSON Schema is the expensive part and Ajv keeps every compiled schema, so a
// validator is compiled once per distinct schema text and reused: repeated tools/list of the same
// tools then costs no memory (SDK v1 grew 55 MB over 1,000 lists by recompiling).

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/client';

const MAX_CACHED = 2_000;

export class CachedSchemaValidator implements jsonSchemaValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const validate = this.compile(schema);
    return (input: unknown) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: this.ajv.errorsText(validate.errors) };
  }

  get size(): number {
    return this.compiled.size;
  }

  private compile(schema: JsonSchemaType): ValidateFunction {
    const key = JSON.stringify(schema);
    const hit = this.compiled.get(key);
    if (hit) return hit;
    if (this.compiled.size >= MAX_CACHED) {
      // Ajv holds every compiled schema internally, so bounding means starting over, not evicting one.
      this.ajv.removeSchema();
      this.compiled.clear();
    }
    // Compile a copy so a later mutation of the caller's object cannot desynchronise key and validator;
    // `$id`s are dropped because Ajv refuses a second schema with the same id.
    const { $id: _id, ...copy } = JSON.parse(key) as Record<string, unknown>;
    const validate = this.ajv.compile(copy);
    this.compiled.set(key, validate);
    return validate;
  }

}
