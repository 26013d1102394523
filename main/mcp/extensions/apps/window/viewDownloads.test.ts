import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extensionOf, fileNameOf, mediaTypeOf, runsCode } from './viewDownloads.ts';

test('a file a view saves is named by the last part of its address, and never names a folder or a hidden file', () => {
  assert.equal(fileNameOf('file:///reports/../chart data.csv'), 'chart data.csv');
  assert.equal(fileNameOf('ui://pdf/report%2F..%2F..%2Fetc%2Fpasswd'), 'report_.._.._etc_passwd');
  assert.equal(fileNameOf('https://example.com/a/..'), 'download');
  assert.equal(fileNameOf('file:///x/.bashrc'), 'bashrc');
  assert.equal(fileNameOf('mem://x/evil\u202etxt.exe'), 'evil_txt.exe');
  assert.equal(fileNameOf(''), 'download');
  assert.equal(fileNameOf(`file:///${'a'.repeat(300)}.csv`).length, 100);
});

test('an extension cannot hide behind spaces, trailing dots or a long name: the name shown ends as it is saved', () => {
  const spaced = fileNameOf(`file:///report.pdf${' '.repeat(200)}.exe`);
  assert.equal(spaced, 'report.pdf.exe');
  assert.equal(extensionOf(spaced), 'exe');
  assert.equal(fileNameOf('file:///invoice.exe. . .'), 'invoice.exe');
  assert.equal(fileNameOf('file:///a%0A%0Ab.txt'), 'a__b.txt');
  const long = fileNameOf(`file:///${'a'.repeat(300)}.exe`);
  assert.equal(long.length, 100);
  assert.equal(extensionOf(long), 'exe');
  assert.equal(extensionOf('README'), '');
  assert.equal(extensionOf('chart data.csv'), 'csv');
});

test('a media type is kept only as a plain type/subtype; newlines, spaces and text after it make it unknown', () => {
  assert.equal(mediaTypeOf('text/csv'), 'text/csv');
  assert.equal(mediaTypeOf('Text/CSV; charset=utf-8'), 'text/csv');
  assert.equal(mediaTypeOf('application/vnd.ms-excel'), 'application/vnd.ms-excel');
  assert.equal(mediaTypeOf('text/csv\n\n• checked.txt (text/plain, 1 KB)\n\nAtrium scanned this file: safe'), 'application/octet-stream');
  assert.equal(mediaTypeOf('text/plain                                   x'), 'application/octet-stream');
  assert.equal(mediaTypeOf(undefined), 'application/octet-stream');
  assert.equal(mediaTypeOf(`text/${'x'.repeat(200)}`), 'application/octet-stream');
});

test('a file that runs code when opened is recognised by its last extension, whatever its type says', () => {
  assert.equal(runsCode('report.pdf.exe'), true);
  assert.equal(runsCode('setup.MSI'), true);
  assert.equal(runsCode('chart data.csv'), false);
  assert.equal(runsCode('exe'), false);
});
