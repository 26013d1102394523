import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '../../../shared/conversation.ts';
import { continueTranscript } from '../transcript.ts';
import { MessageConversions } from './messageConversions.ts';

const said = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const replied = (text: string): ChatMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });

/** A conversion that counts its work and says something about each message holding "odd". */
function counted(): { converted: string[]; convert: (message: ChatMessage, notices: string[]) => string } {
  const converted: string[] = [];
  return {
    converted,
    convert: (message, notices) => {
      const text = message.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('+');
      converted.push(text);
      if (text.includes('odd')) notices.push(`${text} was odd`);
      return `${message.role}:${text}`;
    },
  };
}

test('each request of a turn converts only the messages added since the one before, and says what the kept ones said', () => {
  const conversions = new MessageConversions<string>();
  const { converted, convert } = counted();
  const transcript = Array.from({ length: 1001 }, (_, i) => (i % 2 === 0 ? said(`q${i}${i === 10 ? ' odd' : ''}`) : replied(`a${i}`)));
  const firstNotices: string[] = [];
  const first = conversions.of(transcript, firstNotices, convert);
  assert.equal(converted.length, 1001);
  assert.deepEqual(firstNotices, ['q10 odd was odd']);

  continueTranscript(transcript, [replied('step'), said('result')]);
  const notices: string[] = [];
  const second = conversions.of(transcript, notices, convert);
  assert.deepEqual(converted.slice(1001), ['step', 'result']);
  assert.deepEqual(second, [...first, 'assistant:step', 'user:result']);
  assert.deepEqual(notices, ['q10 odd was odd'], 'a notice goes with every request that sends its message');
});

test('a message replaced (joined with what came after it) and everything after it is converted again', () => {
  const conversions = new MessageConversions<string>();
  const { converted, convert } = counted();
  const transcript = [said('one'), replied('two'), said('three odd')];
  conversions.of(transcript, [], convert);
  continueTranscript(transcript, [said('four')]);
  const notices: string[] = [];
  assert.deepEqual(conversions.of(transcript, notices, convert), ['user:one', 'assistant:two', 'user:three odd+four']);
  assert.deepEqual(converted.slice(3), ['three odd+four']);
  assert.deepEqual(notices, ['three odd+four was odd'], 'the replaced message’s old notice is not said again');
});

test('a change in what the conversion reads besides the messages converts them all again', () => {
  const conversions = new MessageConversions<string>();
  const { converted, convert } = counted();
  const transcript = [said('one'), replied('two')];
  conversions.of(transcript, [], convert, 'deferred: a');
  conversions.of(transcript, [], convert, 'deferred: a');
  assert.equal(converted.length, 2);
  conversions.of(transcript, [], convert, 'deferred: a, b');
  assert.equal(converted.length, 4);
});

test('another transcript (another turn, or the caller’s own copy) is converted whole, and the array returned is the caller’s', () => {
  const conversions = new MessageConversions<string>();
  const { converted, convert } = counted();
  const out = conversions.of([said('one'), replied('two')], [], convert);
  out.push('added by the caller');
  assert.deepEqual(conversions.of([said('one'), replied('two')], [], convert), ['user:one', 'assistant:two']);
  assert.equal(converted.length, 4);
});
