// A server's form elicitation, made safe to show and to answer. The specification limits a form to a
// flat object of primitive fields (string with an optional format, number/integer, boolean, single-
// and multi-select enums); anything else is refused before the person sees it. The person's answer is
// checked against the form's own schema before it goes back, and fields that look like they ask for a
// secret are flagged: the specification forbids form mode for credentials, so such a field is a warning
// sign about the server, not just a password box.

import type { ValidateFunction } from 'ajv';
import type { FieldKind, FormField } from '../../../shared/pendingPayloads.ts';
import { formAjv } from '../../../shared/formAnswers.ts';
import { InvalidServerRequestError } from '../../mcp/connection/connectionServices.ts';
import { describeAjvError } from '../pendingOutcomes.ts';

const text = { type: 'string', maxLength: 10_000 } as const;
const common = { title: text, description: text } as const;

/** The specification's PrimitiveSchemaDefinition (2025-11-25), as a JSON Schema over schemas. */
const fieldSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['type'],
      properties: {
        ...common,
        type: { const: 'string' },
        minLength: { type: 'integer', minimum: 0 },
        maxLength: { type: 'integer', minimum: 0 },
        format: { enum: ['email', 'uri', 'date', 'date-time'] },
        default: { type: 'string' },
      },
      not: { anyOf: [{ required: ['enum'] }, { required: ['oneOf'] }] },
    },
    {
      type: 'object',
      required: ['type', 'enum'],
      properties: { ...common, type: { const: 'string' }, enum: { type: 'array', minItems: 1, items: { type: 'string' } }, enumNames: { type: 'array', items: { type: 'string' } }, default: { type: 'string' } },
    },
    {
      type: 'object',
      required: ['type', 'oneOf'],
      properties: { ...common, type: { const: 'string' }, oneOf: { type: 'array', minItems: 1, items: titledConst() }, default: { type: 'string' } },
    },
    {
      type: 'object',
      required: ['type'],
      properties: { ...common, type: { enum: ['number', 'integer'] }, minimum: { type: 'number' }, maximum: { type: 'number' }, default: { type: 'number' } },
    },
    { type: 'object', required: ['type'], properties: { ...common, type: { const: 'boolean' }, default: { type: 'boolean' } } },
    {
      type: 'object',
      required: ['type', 'items'],
      properties: {
        ...common,
        type: { const: 'array' },
        minItems: { type: 'integer', minimum: 0 },
        maxItems: { type: 'integer', minimum: 0 },
        items: {
          oneOf: [
            { type: 'object', required: ['type', 'enum'], properties: { type: { const: 'string' }, enum: { type: 'array', minItems: 1, items: { type: 'string' } } } },
            { type: 'object', required: ['anyOf'], properties: { anyOf: { type: 'array', minItems: 1, items: titledConst() } } },
          ],
        },
        default: { type: 'array', items: { type: 'string' } },
      },
    },
  ],
} as const;

function titledConst() {
  return { type: 'object', required: ['const'], properties: { const: { type: 'string' }, title: text } } as const;
}

// Compiled at the first form a server sends, not when the host starts.
let compiledFormCheck: ValidateFunction | undefined;
const checkFormSchema = (): ValidateFunction => (compiledFormCheck ??= formAjv().compile({
  type: 'object',
  required: ['type', 'properties'],
  properties: {
    $schema: { type: 'string' },
    type: { const: 'object' },
    properties: { type: 'object', maxProperties: 100, additionalProperties: fieldSchema },
    required: { type: 'array', items: { type: 'string' } },
  },
}));

export type { FieldKind, FormField };

export class InvalidFormError extends InvalidServerRequestError {}

interface RawField {
  type: string;
  title?: string;
  description?: string;
  default?: unknown;
  format?: string;
  enum?: string[];
  enumNames?: string[];
  oneOf?: { const: string; title?: string }[];
  items?: { enum?: string[]; anyOf?: { const: string; title?: string }[] };
}

interface RawForm {
  properties: Record<string, RawField>;
  required?: string[];
}

/** The fields of a valid form; throws InvalidFormError naming the first problem otherwise. */
export function readForm(requestedSchema: unknown): FormField[] {
  const check = checkFormSchema();
  if (!check(requestedSchema)) {
    throw new InvalidFormError(`the form is not one the specification allows (a flat object of text, number, boolean and choice fields): ${describeAjvError(check.errors?.[0])}`);
  }
  const form = requestedSchema as RawForm;
  const required = new Set(form.required ?? []);
  const unknownRequired = [...required].find((name) => !(name in form.properties));
  if (unknownRequired !== undefined) throw new InvalidFormError(`the form requires "${unknownRequired}", which it does not define`);
  return Object.entries(form.properties).map(([name, raw]) => ({
    name,
    kind: kindOf(raw),
    required: required.has(name),
    secretLooking: looksSecret(name, raw),
    ...(raw.title !== undefined ? { title: raw.title } : {}),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    ...(raw.default !== undefined ? { default: raw.default } : {}),
    ...(raw.format !== undefined ? { format: raw.format } : {}),
    ...optionsOf(raw),
  }));
}

function kindOf(raw: RawField): FieldKind {
  if (raw.type === 'array') return 'choices';
  if (raw.type === 'string') return raw.enum || raw.oneOf ? 'choice' : 'text';
  return raw.type as FieldKind;
}

function optionsOf(raw: RawField): { options?: FormField['options'] } {
  if (raw.enum) return { options: raw.enum.map((value, i) => ({ value, label: raw.enumNames?.[i] ?? value })) };
  if (raw.oneOf) return { options: raw.oneOf.map((o) => ({ value: o.const, label: o.title ?? o.const })) };
  if (raw.items?.enum) return { options: raw.items.enum.map((value) => ({ value, label: value })) };
  if (raw.items?.anyOf) return { options: raw.items.anyOf.map((o) => ({ value: o.const, label: o.title ?? o.const })) };
  return {};
}

const SECRET_WORDS = /pass(word|phrase|code)?\b|passwd|secret|token|api[\s_-]?key|access[\s_-]?key|private[\s_-]?key|credential|\bpin\b|\bcvv\b|\bcvc\b|credit[\s_-]?card|card[\s_-]?number|\bssn\b|social security|\botp\b|one[\s-]time code/i;

function looksSecret(name: string, raw: RawField): boolean {
  if (raw.type !== 'string' || raw.enum || raw.oneOf) return false;
  return [name.replace(/([a-z])([A-Z])/g, '$1 $2'), raw.title ?? '', raw.description ?? ''].some((text) => SECRET_WORDS.test(text));
}

/** The answer as it may be kept in history: secret-looking fields masked. */
export function maskSecrets(fields: readonly FormField[], content: Record<string, unknown>): Record<string, unknown> {
  const masked: Record<string, unknown> = { ...content };
  for (const field of fields) if (field.secretLooking && masked[field.name] !== undefined) masked[field.name] = '[secret]';
  return masked;
}
