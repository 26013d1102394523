// A tool's or a prompt's arguments as a person types them in a terminal: one JSON object, or name=value
// words (`atrium call files read_file path=notes.md`, `atrium prompt everything args-prompt city=Paris`).
// A word's value is read as the tool's input schema says of it: a number for a number, true or false for
// a boolean, JSON for an object or an array, and the text itself otherwise (always, for a prompt, whose
// arguments are text). What does not fit is left as typed, for the host's check to name. How the words
// are typed is checked before any server starts (cliArgs.ts), what they mean once the tool is known.

import { jsonProblem } from '../../shared/jsonProblem.ts';
import { isRecord } from '../../shared/isRecord.ts';

/** What the arguments are for, as the messages say it. */
export type ArgumentsOf = "the tool's" | "the prompt's";

/** The arguments `words` give (none when there are no words), or what is wrong with how they are typed. */
export function readWordArguments(words: readonly string[], of: ArgumentsOf, inputSchema?: Record<string, unknown>): { arguments?: Record<string, unknown> } | { problem: string } {
  if (words.length === 0) return {};
  const [only] = words;
  if (words.length === 1 && only !== undefined && only.trimStart().startsWith('{')) return jsonObject(only, of);
  if (words.some((word) => word.trimStart().startsWith('{'))) return { problem: `give ${of} arguments as name=value words or as one JSON object, not both` };
  const properties = isRecord(inputSchema?.properties) ? inputSchema.properties : {};
  const given: Record<string, unknown> = {};
  let last: { name: string; text: string } | undefined;
  for (const word of words) {
    const equals = word.indexOf('=');
    if (equals <= 0) {
      // The shell cut a value at its spaces: the words after the first are not name=value.
      const quoting = last && equals < 0 ? ` (a value with spaces goes in quotes: ${last.name}="${last.text} ${word}")` : '';
      return { problem: `give ${of} arguments as name=value words or as one JSON object: "${word}" is neither${quoting}` };
    }
    const name = word.slice(0, equals);
    if (Object.hasOwn(given, name)) return { problem: `${of} argument ${name} is given twice` };
    const property = properties[name];
    last = { name, text: word.slice(equals + 1) };
    given[name] = valueAs(last.text, isRecord(property) ? property : {});
  }
  return { arguments: given };
}

function jsonObject(text: string, of: ArgumentsOf): { arguments: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Where it goes wrong, in words: the engine's message quotes the text and counts positions.
    return { problem: `${of} arguments are not valid JSON: ${jsonProblem(Buffer.from(text, 'utf8'), 'the text') ?? 'it is not JSON'}` };
  }
  return isRecord(value) ? { arguments: value } : { problem: `${of} arguments must be a JSON object` };
}

/**
 * The number typed in decimal, as JSON writes numbers (a sign, a fraction and an exponent allowed), or
 * undefined. Not JavaScript's own reading, which takes "0x10" for 16, "0b1" for 1 and " " for 0.
 */
export function decimalNumber(text: string): number | undefined {
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text.trim())) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/** The typed word as its property's schema takes it; as typed when it does not fit (or no type is said). */
function valueAs(text: string, property: Record<string, unknown>): unknown {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  const type = types.find((candidate) => candidate !== 'null' && candidate !== 'string');
  if (types.includes('string') || type === undefined) return text;
  if (type === 'number' || type === 'integer') return decimalNumber(text) ?? text;
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (type === 'object' || type === 'array') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

