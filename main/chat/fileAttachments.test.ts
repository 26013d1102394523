import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttachmentError, fileToContent } from './fileAttachments.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

test('an image goes as an image, a text file as text under its name', () => {
  assert.deepEqual(fileToContent({ name: 'a.png', mimeType: 'image/png', data: 'AAAA' }), [
    { type: 'text', text: 'Attached image a.png:' },
    { type: 'image', mimeType: 'image/png', data: 'AAAA' },
  ]);
  assert.deepEqual(fileToContent({ name: 'notes.md', mimeType: '', data: b64('# hi') }), [{ type: 'text', text: 'Attached file notes.md:\n# hi' }]);
  assert.deepEqual(fileToContent({ name: 'x.json', mimeType: 'application/json', data: b64('{}') }), [{ type: 'text', text: 'Attached file x.json:\n{}' }]);
});

test('a binary file, or a "text" file that is not UTF-8, is refused with its name', () => {
  assert.throws(() => fileToContent({ name: 'blob.bin', mimeType: 'application/octet-stream', data: 'AAEC' }), AttachmentError);
  assert.throws(() => fileToContent({ name: 'bad.txt', mimeType: 'text/plain', data: Buffer.from([0xff, 0xfe, 0xfd]).toString('base64') }), TypeError);
});
