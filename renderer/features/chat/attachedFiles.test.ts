import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attachFiles } from './attachedFiles.ts';

const png = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

test('files past 30 MB together, or past ten, are refused by name; those before them are attached', async () => {
  const nineAndAHalf = 9_500_000;
  const { files, refused } = await attachFiles([png('a.png', nineAndAHalf), png('b.png', nineAndAHalf), png('c.png', nineAndAHalf), png('d.png', nineAndAHalf)], []);
  assert.deepEqual(files.map((f) => f.name), ['a.png', 'b.png', 'c.png']);
  assert.deepEqual(refused, ['d.png was not attached: the files of one message come to at most 30 MB together.']);
  const many = await attachFiles(Array.from({ length: 11 }, (_, i) => png(`${i}.png`, 10)), []);
  assert.equal(many.files.length, 10);
  assert.deepEqual(many.refused, ['10.png was not attached: a message carries at most 10 files.']);
});

test('a file of a name already attached replaces it, so choosing it again never counts it twice', async () => {
  const first = await attachFiles([png('a.png', 9_500_000), png('b.png', 9_500_000), png('c.png', 9_500_000)], []);
  const again = await attachFiles([png('c.png', 9_000_000)], first.files);
  assert.deepEqual(again.refused, []);
  assert.deepEqual(again.files.map((f) => [f.name, f.size]), [['a.png', 9_500_000], ['b.png', 9_500_000], ['c.png', 9_000_000]]);
});

test('what a model cannot read, or a file over 10 MB, is refused with a sentence saying why', async () => {
  const { files, refused } = await attachFiles(
    [new File([new Uint8Array([0x50, 0x4b, 0, 1])], 'report.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }), png('huge.png', 11 * 1024 * 1024), new File(['hello'], 'notes.md')],
    [],
  );
  assert.deepEqual(files.map((f) => [f.name, atob(f.data)]), [['notes.md', 'hello']]);
  assert.deepEqual(refused, ['report.docx is neither an image nor text: attach PNG, JPEG, GIF or WebP images, or text files.', 'huge.png is larger than 10 MB.']);
});
