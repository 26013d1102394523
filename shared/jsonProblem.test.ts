import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonProblem } from './jsonProblem.ts';

const problem = (text: string | Uint8Array) => jsonProblem(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);

test('valid JSON has no problem', () => {
  assert.equal(problem('{"a": [1, 2.5e3, true, null, "x\\u00e9"]}\n'), undefined);
});

test('a damaged file is described by line and column, in words, never by its raw bytes', () => {
  assert.equal(problem(''), 'the file is empty');
  assert.equal(problem(new Uint8Array(12)), 'the file holds only zero bytes (12 of them), as a crash or a full disk during a write leaves it');
  assert.equal(problem('{\n  "a": {"b": 1'), 'line 2, column 15: the file ends too early (it looks cut short)');
  assert.equal(problem('{"a": 1}\0\0\0'), 'line 1, column 9: unexpected zero byte (U+0000)');
  assert.equal(problem('{"a": "x\u202Ey"}'), undefined, 'a bidi control inside a string is valid JSON');
  assert.equal(problem('{"a": 1,\u202E}'), 'line 1, column 9: unexpected character U+202E');
  assert.equal(problem(new Uint8Array([0x7b, 0xff, 0x7d])), 'the file is not text (it is not valid UTF-8)');
});

test('the line and column are those of the mistake itself, not of the line after it where a parser notices it', () => {
  // A comma after the last entry, as people leave when they delete one: the comma is the mistake.
  assert.equal(problem('{"mcpServers": {\n  "echo": {"command": "node"},\n}}\n'), 'line 2, column 30: a comma with nothing after it (remove it)');
  assert.equal(problem('[\n  1,\n  2,\n]'), 'line 3, column 4: a comma with nothing after it (remove it)');
  // A comma forgotten at the end of a line: where it belongs, right after the value.
  assert.equal(problem('{\n  "a": 1\n  "b": 2\n}'), 'line 2, column 9: a comma is missing here (or a closing "}")');
  assert.equal(problem('{"a": [\n  "x"\n  "y"\n]}'), 'line 2, column 6: a comma is missing here (or a closing "]")');
  assert.equal(problem('{\n  "a": 1,\n  "b" 2\n}'), 'line 3, column 6: a colon (:) is missing here');
  assert.equal(problem('{\n  "a":\n}'), 'line 2, column 7: a value is missing here');
  assert.equal(problem('{\n  "a": "open\n}'), 'line 2, column 13: a closing quote (") is missing: a text in quotes ends at the end of its line');
  assert.equal(problem('{\n  // mine\n  "a": 1\n}'), 'line 2, column 3: JSON allows no comments (remove it)');
  assert.equal(problem('{\n  "a": tru\n}'), 'line 2, column 11: unexpected end of the line');
  assert.equal(problem("{\n  'a': 1\n}"), `line 2, column 3: unexpected "'"`);
  // Half an old file left under a new one, as an editor's partial overwrite leaves it.
  assert.equal(problem('{\n  "a": 1\n}\n    "b"\n  }\n}\n'), 'line 4, column 5: more text after the end of the JSON');
});
