// The types of serverEntryValidator.generated.mjs, Ajv's standalone code for serverEntrySchema.
import type { ErrorObject } from 'ajv';

declare const validate: { (data: unknown): boolean; readonly errors: ErrorObject[] | null | undefined };
export default validate;
export { validate };
