// Says what is wrong with a file (or a text typed on a command line) that should hold JSON, in a person's
// words: "line 2, column 30: a comma with nothing after it". V8's own messages quote the text itself (raw
// NUL bytes and all), often give no position, and place a missing or extra comma on the line after it; so
// the mistake is found here by a small scanner, and the message never echoes the text. Plain JavaScript
// with no import, so the command line's own checks use it without loading any of the host.

/**
 * The text of a JSON file as jsonProblem reads it, for JSON.parse: UTF-8 with a byte order mark dropped
 * (Windows Notepad saves one; Buffer's toString would keep it, and JSON.parse refuses it).
 */
export function jsonFileText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/**
 * Why `bytes` is not JSON, or undefined when it is. `of` names what they are, as the person knows it
 * ("the file", or "the text" for JSON typed on a command line).
 */
export function jsonProblem(bytes: Uint8Array, of = 'the file'): string | undefined {
  if (bytes.length === 0) return `${of} is empty`;
  if (bytes.every((byte) => byte === 0)) return `${of} holds only zero bytes (${bytes.length} of them), as a crash or a full disk during a write leaves it`;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return `${of} is not text (it is not valid UTF-8)`;
  }
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // Described below, without V8's message.
  }
  const stop = firstMistake(text);
  const { line, column } = lineAndColumn(text, stop.offset);
  return `line ${line}, column ${column}: ${describeMistake(text, stop, of)}`;
}

function describeMistake(text: string, { offset, kind, closer }: JsonStop, of: string): string {
  switch (kind) {
    case 'missing comma':
      return `a comma is missing here (or a closing "${closer ?? '}'}")`;
    case 'trailing comma':
      return 'a comma with nothing after it (remove it)';
    case 'missing colon':
      return 'a colon (:) is missing here';
    case 'missing value':
      return 'a value is missing here';
    case 'unclosed text':
      return 'a closing quote (") is missing: a text in quotes ends at the end of its line';
    case 'comment':
      return 'JSON allows no comments (remove it)';
    case 'cut short':
      return `${of} ends too early (it looks cut short)`;
    case 'more after the end':
      return 'more text after the end of the JSON';
    case 'unexpected':
      return `unexpected ${visibleCharacter(text, offset)}`;
  }
}

/** One character as a person can read it: printable ones quoted, others by their code (never raw). */
export function visibleCharacter(text: string, offset: number): string {
  const code = text.codePointAt(offset) ?? 0;
  if (code === 0) return 'zero byte (U+0000)';
  if (code === 0x0a || code === 0x0d) return 'end of the line';
  if (code < 0x20 || (code >= 0x7f && code < 0xa0) || /[\p{Cf}\p{Zl}\p{Zp}]/u.test(String.fromCodePoint(code))) {
    return `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `"${String.fromCodePoint(code)}"`;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: Math.min(offset, text.length) - start + 1 };
}

type Mistake = 'missing comma' | 'trailing comma' | 'missing colon' | 'missing value' | 'unclosed text' | 'comment' | 'cut short' | 'more after the end' | 'unexpected';

/**
 * Where `text` stops being JSON, placed on the mistake itself rather than on the character where a
 * parser notices it: a missing comma right after the value it should follow, a trailing comma on that
 * comma — not on the next line, where the person would look in vain.
 */
function firstMistake(text: string): JsonStop {
  let i = 0;
  const fail = (at: number, kind: Mistake = 'unexpected', closer?: '}' | ']'): never => {
    if (at >= text.length) throw new JsonStop(text.length, 'cut short');
    if (kind === 'unexpected' && text[at] === '/' && (text[at + 1] === '/' || text[at + 1] === '*')) throw new JsonStop(at, 'comment');
    throw new JsonStop(at, kind, closer);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const startsValue = (at: number) => /["{[\-0-9tfn]/.test(text[at] ?? '');
  const literal = (word: string) => {
    for (const char of word) {
      if (text[i] !== char) fail(i);
      i++;
    }
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail(i);
      const char = text[i] as string;
      if (char === '"') {
        i++;
        return;
      }
      if (char === '\n' || char === '\r') fail(i, 'unclosed text');
      if (char < ' ') fail(i);
      if (char === '\\') {
        i++;
        const escape = text[i];
        if (escape === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) fail(i + k);
          i += 4;
        } else if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail(i);
      }
      i++;
    }
  };
  const digits = () => {
    const start = i;
    while (/[0-9]/.test(text[i] ?? '')) i++;
    if (i === start) fail(i);
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  /** After a value inside a container: a comma (true), its closer (false), or the mistake. */
  const next = (closer: '}' | ']'): boolean => {
    const end = i;
    space();
    if (text[i] === ',') {
      const comma = i++;
      space();
      if (text[i] === closer) fail(comma, 'trailing comma');
      return true;
    }
    if (text[i] === closer) {
      i++;
      return false;
    }
    if (startsValue(i)) fail(end, 'missing comma', closer);
    return fail(i);
  };
  const value = (): void => {
    const start = i;
    space();
    const char = text[i];
    if (char === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      do {
        space();
        if (text[i] !== '"') fail(i);
        string();
        const end = i;
        space();
        if (text[i] !== ':') fail(startsValue(i) ? end : i, startsValue(i) ? 'missing colon' : 'unexpected');
        i++;
        value();
      } while (next('}'));
      return;
    }
    if (char === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      do value();
      while (next(']'));
      return;
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || /[0-9]/.test(char ?? '')) return number();
    if (char === '}' || char === ']' || char === ',') fail(start, 'missing value');
    fail(i);
  };
  try {
    value();
    space();
    if (i < text.length) fail(i, text[i] === '\0' ? 'unexpected' : 'more after the end');
    // Not reached for text JSON.parse refused; kept total for the type.
    return new JsonStop(text.length, 'cut short');
  } catch (stop) {
    if (stop instanceof JsonStop) return stop;
    throw stop;
  }
}

class JsonStop {
  readonly offset: number;
  readonly kind: Mistake;
  readonly closer: '}' | ']' | undefined;
  constructor(offset: number, kind: Mistake, closer?: '}' | ']') {
    this.offset = offset;
    this.kind = kind;
    this.closer = closer;
  }
}
