import type { ApiErrorShape } from '../../shared/contract.ts';

/** A failed request as the renderer sees it: the host's readable message plus its error code. */
export class AtriumRequestError extends Error {
  readonly code: ApiErrorShape['code'];

  constructor(shape: ApiErrorShape) {
    super(shape.message);
    this.name = 'AtriumRequestError';
    this.code = shape.code;
  }
}

/** The text to show a person for anything a request rejected with. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}
