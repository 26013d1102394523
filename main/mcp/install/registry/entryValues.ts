// The values a registry entry asks for (server.json's inputs: an environment variable, a header, an
// argument, a URL variable — each perhaps a template whose `{variables}` are asked instead) and how a
// person's answers fill them. A secret's answer is never put into the definition: it goes to Atrium's
// encrypted store and the definition names it (`${secret:NAME}`).

import type { InstallInput, InstallInputKind } from '../../../../shared/installs.ts';
import { hasSecretReference, secretReference, serverSecretName } from '../../config/secretReferences.ts';
import { InstallError } from '../installError.ts';
import { FieldProblemsError } from '../../../../shared/fieldProblems.ts';
import type { RegistryInput } from './registryRecords.ts';

/** What the answers fill, and the secrets they hand over. */
export class EntryValues {
  /** Each value asked, once per key. */
  readonly inputs: InstallInput[] = [];
  /** Secret name → value, for the store. */
  readonly secrets = new Map<string, string>();
  private readonly answers: Readonly<Record<string, string>>;
  private readonly serverId: string;
  /** Only collect what is asked (a plan shown before any answer), refusing nothing. */
  readonly planning: boolean;

  constructor(answers: Readonly<Record<string, string>>, serverId: string, planning = false) {
    this.answers = answers;
    this.serverId = serverId;
    this.planning = planning;
  }

  /**
   * The value of one input of the entry (`key` as the entry names it): its fixed value with its variables
   * filled, or the person's answer, or its default. Undefined when it is optional and not given.
   * `encode` is how a variable's answer goes into the text (a URL's parts are percent-encoded).
   */
  fill(key: string, kind: InstallInputKind, input: RegistryInput, encode: (value: string) => string = (value) => value): string | undefined {
    let value: string | undefined;
    if (input.value !== undefined) {
      value = input.value.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
        const variable = input.variables?.[name];
        if (!variable) return whole;
        const answer = this.answer(name, kind, variable);
        if (answer === undefined) return '';
        // A plan shows where an answer will go as {name}, not as its percent-encoding.
        if (this.planning && answer === `{${name}}`) return answer;
        // A secret variable is kept by itself: "Bearer ${secret:…}", an address whose host stays readable.
        return variable.isSecret ? this.keep(name, encode(answer)) : encode(answer);
      });
    } else {
      value = this.answer(key, kind, input);
    }
    return value !== undefined && input.isSecret === true && !hasSecretReference(value) ? this.keep(key, value) : value;
  }

  /** A secret's value goes to the store; the definition gets its name. */
  private keep(key: string, value: string): string {
    if (this.planning) return value;
    const name = serverSecretName(this.serverId, key);
    this.secrets.set(name, value);
    return secretReference(name);
  }

  /** The person's answer to one asked value (checked against its format and choices), else its default. */
  private answer(key: string, kind: InstallInputKind, input: RegistryInput): string | undefined {
    if (!this.inputs.some((asked) => asked.key === key)) {
      this.inputs.push({
        key,
        kind,
        required: input.isRequired === true,
        secret: input.isSecret === true,
        ...(input.description ? { description: input.description } : {}),
        ...(input.default !== undefined ? { default: input.default } : {}),
        ...(input.choices?.length ? { choices: input.choices } : {}),
        ...(input.format ? { format: input.format } : {}),
      });
    }
    const given = lookUp(this.answers, key);
    const value = given !== undefined && given !== '' ? given : input.default;
    if (this.planning) return value ?? `{${key}}`;
    if (value === undefined || value === '') {
      if (input.isRequired) throw new FieldProblemsError([{ field: `values.${key}`, message: `${capitalised(describeInput(key, kind))} is required${input.description ? ` (${input.description})` : ''}` }]);
      return undefined;
    }
    if (input.choices?.length && !input.choices.includes(value)) throw new InstallError('invalid_params', `${describeInput(key, kind)} must be one of ${input.choices.join(', ')}, not "${value}"`);
    if (input.format === 'number' && !Number.isFinite(Number(value))) throw new InstallError('invalid_params', `${describeInput(key, kind)} must be a number, not "${value}"`);
    if (input.format === 'boolean' && value !== 'true' && value !== 'false') throw new InstallError('invalid_params', `${describeInput(key, kind)} must be true or false, not "${value}"`);
    return value;
  }

  /** The person's answer for `key`, as given (before it is filled into anything). */
  given(key: string): string | undefined {
    return lookUp(this.answers, key);
  }

  /** The answers given for no value the entry asks for: probably a misspelt name. */
  unknownAnswers(): string[] {
    return Object.keys(this.answers).filter((key) => !this.inputs.some((asked) => asked.key === key || asked.key.replace(/^-+/, '') === key));
  }
}

/** An answer by the key as the entry names it; a flag's name may be given without its dashes. */
function lookUp(answers: Readonly<Record<string, string>>, key: string): string | undefined {
  if (Object.hasOwn(answers, key)) return answers[key];
  const bare = key.replace(/^-+/, '');
  return Object.hasOwn(answers, bare) ? answers[bare] : undefined;
}

export function describeInput(key: string, kind: InstallInputKind): string {
  switch (kind) {
    case 'environment':
      return `the environment variable ${key}`;
    case 'header':
      return `the header ${key}`;
    case 'url':
      return `the address's ${key}`;
    case 'argument':
      return `the argument ${key}`;
    case 'setting':
      return `the setting ${key}`;
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
