import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downloadQuestion, fileNameOf } from './viewDownloads.ts';

test('a file a view saves is named by the last part of its address, and never names a folder or a hidden file', () => {
  assert.equal(fileNameOf('file:///reports/../chart data.csv'), 'chart data.csv');
  assert.equal(fileNameOf('ui://pdf/report%2F..%2F..%2Fetc%2Fpasswd'), 'report_.._.._etc_passwd');
  assert.equal(fileNameOf('https://example.com/a/..'), 'download');
  assert.equal(fileNameOf('file:///x/.bashrc'), 'bashrc');
  assert.equal(fileNameOf('mem://x/evil\u202etxt.exe'), 'evil_txt.exe');
  assert.equal(fileNameOf(''), 'download');
  assert.equal(fileNameOf(`file:///${'a'.repeat(300)}.csv`).length, 100);
});

test('the question names who asks and each file with its type and size, hidden characters shown', () => {
  const question = downloadQuestion('View of charts/show', [
    { name: 'a.csv', mimeType: 'text/csv', bytes: new Uint8Array(24) },
    { name: 'b.pdf', mimeType: 'application/pdf', bytes: new Uint8Array(3 * 1024 * 1024) },
  ]);
  assert.equal(question, 'View of charts/show asks to save 2 files to your computer:\n\n• a.csv (text/csv, 24 bytes)\n• b.pdf (application/pdf, 3.0 MB)\n\nSave them?');
});
