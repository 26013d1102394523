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
  assert.equal(problem('{\n  "a": 1,\n  "b" 2\n}'), 'line 3, column 7: unexpected "2"');
  assert.equal(problem('{\n  "a": {"b": 1'), 'line 2, column 15: the file ends too early (it looks cut short)');
  assert.equal(problem('{"a": 1}\0\0\0'), 'line 1, column 9: unexpected zero byte (U+0000)');
  assert.equal(problem('{"a": "x\u202Ey"}'), undefined, 'a bidi control inside a string is valid JSON');
  assert.equal(problem('{"a": 1,\u202E}'), 'line 1, column 9: unexpected character U+202E');
  assert.equal(problem(new Uint8Array([0x7b, 0xff, 0x7d])), 'the file is not text (it is not valid UTF-8)');
});
