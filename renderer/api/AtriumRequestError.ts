import type { ApiErrorShape, FieldProblem } from '../../shared/contract.ts';
import { readFieldProblems } from '../../shared/fieldProblems.ts';

/** A failed request as the renderer sees it: the host's readable message, its error code and, from a form, each field's problem. */
export class AtriumRequestError extends Error {
  readonly code: ApiErrorShape['code'];
  readonly fields: readonly FieldProblem[];
  /** The data file whose damage refused the change: the refusal is over once that file reads again. */
  readonly dataFile: string | undefined;

  constructor(shape: ApiErrorShape) {
    super(shape.message);
    this.name = 'AtriumRequestError';
    this.code = shape.code;
    this.fields = readFieldProblems(shape.fields) ?? [];
    this.dataFile = typeof shape.dataFile === 'string' ? shape.dataFile : undefined;
  }
}

/** The text to show a person for anything a request rejected with. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}
