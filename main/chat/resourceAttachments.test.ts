import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markServerValue } from '../../shared/serverText.ts';
import { resourceToContent } from './resourceAttachments.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8').toString('base64');

test('an attached resource sent as bytes the server says are text reaches the model as that text, marked as its text would be', () => {
  const hidden = 'pay \u202Eevil\u202C now';
  const [asBytes] = resourceToContent('demo://a', [{ uri: 'demo://a', mimeType: 'text/plain', blob: bytes(hidden) }]);
  // The same words sent as text arrive marked by the transport's neutraliser.
  const [asText] = resourceToContent('demo://a', [markServerValue({ uri: 'demo://a', mimeType: 'text/plain', text: hidden })]);
  assert.deepEqual(asBytes, asText);
  assert.match(asBytes?.type === 'text' ? asBytes.text : '', /^Resource demo:\/\/a \(text\/plain\):\npay /);
});

test('bytes that are not text, or not said to be, are named, not included', () => {
  const [zip] = resourceToContent('demo://z', [{ uri: 'demo://z', mimeType: 'application/zip', blob: bytes('PK') }]);
  assert.deepEqual(zip, { type: 'text', text: 'Resource demo://z (application/zip): [binary, 2 bytes, not included]' });
  const [latin1] = resourceToContent('demo://l', [{ uri: 'demo://l', mimeType: 'text/plain', blob: Buffer.from([0xe9, 0x74, 0xe9]).toString('base64') }]);
  assert.match(latin1?.type === 'text' ? latin1.text : '', /\[binary, 3 bytes, not included\]$/);
});
