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

test('a binary file, a "text" file holding binary data, or an image no model takes is refused with its name and what to attach', () => {
  assert.throws(() => fileToContent({ name: 'blob.bin', mimeType: 'application/octet-stream', data: 'AAEC' }), new AttachmentError('blob.bin is neither an image nor text: attach PNG, JPEG, GIF or WebP images, or text files'));
  assert.throws(() => fileToContent({ name: 'bad.txt', mimeType: 'text/plain', data: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff]).toString('base64') }), (error: unknown) => error instanceof AttachmentError && /^bad\.txt is not text \(it holds binary data\)/.test(error.message));
  assert.throws(() => fileToContent({ name: 'scan.tiff', mimeType: 'image/tiff', data: 'AAAA' }), /scan\.tiff is an image of a kind models do not take: attach PNG, JPEG, GIF or WebP images/);
});

test('text saved by an older Windows editor is read as Windows-1252; an SVG goes as its text; a byte-order mark is dropped', () => {
  assert.deepEqual(fileToContent({ name: 'menu.txt', mimeType: 'text/plain', data: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]).toString('base64') }), [{ type: 'text', text: 'Attached file menu.txt:\ncafé €5' }]);
  assert.deepEqual(fileToContent({ name: 'logo.svg', mimeType: 'image/svg+xml', data: b64('<svg/>') }), [{ type: 'text', text: 'Attached file logo.svg:\n<svg/>' }]);
  assert.deepEqual(fileToContent({ name: 'bom.md', mimeType: '', data: b64('\ufeff# hi') }), [{ type: 'text', text: 'Attached file bom.md:\n# hi' }]);
});
