// Problems with what a person typed into a form, as values: each names the field by the key the
// request uses for it (a dotted path such as `provider.id`, or a form field's name) and says, in the
// person's words, what is wrong and what to do. A form shows each one beside its field, all at once.

export interface FieldProblem {
  /** The request's key for the field: `serverId`, `entry.command`, `provider.baseUrl`, a form field's name. */
  field: string;
  /** A sentence that names the field as the person sees it (its label) and what to do. */
  message: string;
}

/** Thrown by the host when a request's fields are wrong; the front end receives the problems with it. */
export class FieldProblemsError extends Error {
  readonly code = 'invalid_params';
  readonly fields: FieldProblem[];

  constructor(fields: FieldProblem[]) {
    super(fields.map((problem) => problem.message).join(' '));
    this.name = 'FieldProblemsError';
    this.fields = fields;
  }
}

const maxProblems = 100;
const maxLength = 1_000;

/** The field problems `value` carries, kept only when well formed (the value may come from the other side of a bridge). */
export function readFieldProblems(value: unknown): FieldProblem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const problems = value
    .filter((p): p is FieldProblem => typeof p === 'object' && p !== null && typeof (p as FieldProblem).field === 'string' && typeof (p as FieldProblem).message === 'string')
    .slice(0, maxProblems)
    .map((p) => ({ field: p.field.slice(0, maxLength), message: p.message.slice(0, maxLength) }));
  return problems.length > 0 ? problems : undefined;
}
