import type { ApiErrorShape, FieldProblem } from '../../shared/contract.ts';
import { readFieldProblems } from '../../shared/fieldProblems.ts';

/** A failed request as the renderer sees it: the host's readable message, its error code and, from a form, each field's problem. */
export class AtriumRequestError extends Error {
  readonly code: ApiErrorShape['code'];
  readonly fields: readonly FieldProblem[];

  constructor(shape: ApiErrorShape) {
    super(shape.message);
    this.name = 'AtriumRequestError';
    this.code = shape.code;
    this.fields = readFieldProblems(shape.fields) ?? [];
  }
}

/** The text to show a person for anything a request rejected with. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}
