// Says what is wrong with a data file that should hold JSON, in a person's words: "line 3, column 7:
// unexpected "}"". V8's own messages quote the text itself (raw NUL bytes and all) and often give no
// position, so the position is found here by a small scanner, and the message never echoes the file.

/** Why `bytes` is not JSON, or undefined when it is. */
export function jsonProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return 'the file is empty';
  if (bytes.every((byte) => byte === 0)) return `the file holds only zero bytes (${bytes.length} of them), as a crash or a full disk during a write leaves it`;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'the file is not text (it is not valid UTF-8)';
  }
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // Described below, without V8's message.
  }
  const offset = firstErrorOffset(text);
  const { line, column } = lineAndColumn(text, offset);
  const what = offset >= text.length ? 'the file ends too early (it looks cut short)' : `unexpected ${visibleCharacter(text, offset)}`;
  return `line ${line}, column ${column}: ${what}`;
}

/** One character as a person can read it: printable ones quoted, others by their code (never raw). */
export function visibleCharacter(text: string, offset: number): string {
  const code = text.codePointAt(offset) ?? 0;
  if (code === 0) return 'zero byte (U+0000)';
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

/** The offset of the first character at which `text` stops being JSON (text.length: it ends too early). */
function firstErrorOffset(text: string): number {
  let i = 0;
  const fail = (at: number): never => {
    throw new JsonStop(at);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
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
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail(i);
        string();
        space();
        if (text[i] !== ':') fail(i);
        i++;
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail(i);
      }
    }
    if (char === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail(i);
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || /[0-9]/.test(char ?? '')) return number();
    fail(i);
  };
  try {
    value();
    space();
    return i < text.length ? i : text.length;
  } catch (stop) {
    if (stop instanceof JsonStop) return stop.offset;
    throw stop;
  }
}

class JsonStop {
  readonly offset: number;
  constructor(offset: number) {
    this.offset = offset;
  }
}
