// A server's form, filled in on the terminal one field at a time. Each answer is read as the field's
// kind and checked against the form's own schema (the check the host makes on the whole answer) before
// the next field is asked, so a mistake is explained and only that field is asked again.

import type { JsonObject } from '../../shared/contract.ts';
import { checkAnswer } from '../../shared/formAnswers.ts';
import type { FormField } from '../../shared/pendingPayloads.ts';
import { oneLine, visible } from './formatOutput.ts';
import { decimalNumber } from './wordArguments.ts';

type JsonValue = JsonObject[string];

/** Asks one field this many times before the form is given up. */
const TRIES_PER_FIELD = 3;

export interface FormTerminal {
  ask(question: string): Promise<string>;
  err(text: string): void;
}

/** The form's content, or undefined when a field got no fitting answer after a few tries. */
export async function askForm(fields: readonly FormField[], requestedSchema: object, terminal: FormTerminal): Promise<JsonObject | undefined> {
  const content: JsonObject = {};
  for (const field of fields) {
    const answer = await askField(field, requestedSchema, terminal);
    if (answer === 'gave up') return undefined;
    if (answer.value !== undefined) content[field.name] = answer.value;
  }
  return content;
}

async function askField(field: FormField, requestedSchema: object, terminal: FormTerminal): Promise<{ value: JsonValue | undefined } | 'gave up'> {
  for (let attempt = 1; attempt <= TRIES_PER_FIELD; attempt++) {
    const read = readAnswer(field, (await terminal.ask(fieldQuestion(field))).trim());
    // A problem reading the typed text is the field's; the form's own check already names the field.
    const problem = 'problem' in read ? `${visible(labelOf(field))}: ${read.problem}` : fieldProblem(field, requestedSchema, read.value);
    if (problem === undefined) return { value: 'problem' in read ? undefined : read.value };
    terminal.err(`  ✗ ${problem.replace(/\.$/, '')}${attempt < TRIES_PER_FIELD ? '; try again' : ''}`);
  }
  return 'gave up';
}

function labelOf(field: FormField): string {
  return field.title ?? field.name;
}

function fieldQuestion(field: FormField): string {
  const options = field.options ? ` (${field.options.map((o) => `${visible(o.value)}${o.label !== o.value ? `=${visible(o.label)}` : ''}`).join(', ')}${field.kind === 'choices' ? '; comma-separated' : ''})` : '';
  const hint = field.kind === 'boolean' ? ' [y/n]' : field.format ? ` (${field.format})` : '';
  const fallback = field.default !== undefined ? ` [default ${visible(JSON.stringify(field.default))}]` : '';
  // What the server says the field is for, as the window shows under the field; one line, so it cannot pass for another question.
  const description = field.description?.trim() ? ` — ${visible(oneLine(field.description))}` : '';
  return `  ${field.secretLooking ? '⚠ ' : ''}${visible(labelOf(field))}${field.required ? '*' : ''}${description}${options}${hint}${fallback}: `;
}

/** The typed value of a terminal answer; an empty answer leaves the field out (its default, if any, applies). */
function readAnswer(field: FormField, text: string): { value: JsonValue | undefined } | { problem: string } {
  if (text === '') return field.required && field.default === undefined ? { problem: 'an answer is needed' } : { value: undefined };
  switch (field.kind) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { problem: 'answer y or n' };
    case 'number':
    case 'integer': {
      const number = decimalNumber(text);
      if (number === undefined) return { problem: `"${visible(text)}" is not a number` };
      if (field.kind === 'integer' && !Number.isInteger(number)) return { problem: `"${visible(text)}" is not a whole number` };
      return { value: number };
    }
    case 'choice':
      return { value: choiceValue(field, text) };
    case 'choices':
      return { value: text.split(',').map((s) => choiceValue(field, s.trim())).filter(Boolean) };
    default:
      return { value: text };
  }
}

/** A choice may be typed as its value or as the label shown beside it. */
function choiceValue(field: FormField, text: string): string {
  return field.options?.find((o) => o.value === text || o.label === text)?.value ?? text;
}

/** Why this one value does not fit its field in the form's schema (range, length, format, choices), naming the field by its label. */
function fieldProblem(field: FormField, requestedSchema: object, value: JsonValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  const properties = (requestedSchema as { properties?: Record<string, unknown> }).properties ?? {};
  const problems = checkAnswer({ type: 'object', properties: { [field.name]: properties[field.name] } }, { [field.name]: value });
  if (problems === undefined) return undefined;
  if (field.options && (field.kind === 'choice' || field.kind === 'choices')) return `${visible(labelOf(field))}: choose from ${field.options.map((o) => visible(o.value)).join(', ')}`;
  return visible(problems[0]?.message ?? `${labelOf(field)} does not fit the form.`);
}

