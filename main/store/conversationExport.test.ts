import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPORT_FORMAT, escapeProse, exportJson, exportMarkdown, fenced, inlineCode } from './conversationExport.ts';
import type { Conversation, StoredMessage, ToolCallRecord } from '../../shared/conversation.ts';

const conversation: Conversation = { id: 'c1', title: 'Hosts <b>file</b>', createdAt: Date.UTC(2026, 0, 2, 3, 4, 5), updatedAt: 0, providerId: 'anthropic', model: 'claude' };

function message(seq: number, fields: Partial<StoredMessage> & Pick<StoredMessage, 'role' | 'content'>): StoredMessage {
  return { id: `m${seq}`, conversationId: 'c1', seq, status: 'complete', createdAt: conversation.createdAt + seq * 1000, updatedAt: 0, ...fields };
}

const messages: StoredMessage[] = [
  message(1, { role: 'user', content: [{ type: 'text', text: 'What is in /etc/hosts? Is 1 < 2?' }] }),
  message(2, {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'files__read', input: { path: '/etc/hosts' } },
    ],
  }),
  message(3, { role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: '127.0.0.1 localhost' }] }] }),
  message(4, { role: 'assistant', status: 'incomplete', content: [{ type: 'text', text: 'It maps <script>alert(1)</script> localh' }] }),
  message(5, { role: 'assistant', status: 'error', error: 'Rate limited <img src=x onerror=alert(1)>', content: [] }),
];

const toolCalls: ToolCallRecord[] = [
  {
    id: 'toolu_1',
    conversationId: 'c1',
    messageId: 'm2',
    serverId: 'files',
    tool: 'read',
    modelName: 'files__read',
    arguments: { path: '/etc/hosts' },
    decision: 'allow',
    decidedBy: 'person',
    status: 'done',
    result: { content: [{ type: 'text', text: '127.0.0.1 localhost\n```\n<iframe src="evil">\n```' }] },
    isError: false,
    createdAt: 0,
    durationMs: 12,
  },
];

test('Markdown has a heading per turn, tool calls with server, tool, arguments and result, and marks cut-short replies', () => {
  const markdown = exportMarkdown(conversation, messages, toolCalls);
  assert.match(markdown, /^# Hosts &lt;b>file&lt;\/b>\n/);
  assert.match(markdown, /model `anthropic \/ claude`/);
  assert.deepEqual(
    markdown.match(/^## .*/gm),
    ['## You · 2026-01-02 03:04:06 UTC', '## Assistant · 2026-01-02 03:04:07 UTC', '## Assistant · 2026-01-02 03:04:09 UTC', '## Assistant · 2026-01-02 03:04:10 UTC'],
    'the tool result turn is shown with its call, not repeated',
  );
  assert.match(markdown, /\*\*Tool call\*\* `files__read`: server `files`, tool `read`, status done, allowed by you, 12 ms/);
  assert.match(markdown, /Arguments:\n\n```json\n\{\n {2}"path": "\/etc\/hosts"\n\}\n```/);
  assert.match(markdown, /Result:\n\n````text\n127\.0\.0\.1 localhost\n```\n<iframe src="evil">\n```\n````/, 'a result with a fence inside gets a longer fence');
  // The window's words for it: one wording of a reply that did not finish.
  assert.match(markdown, /> \*\*Stopped before it finished\.\*\*/);
  assert.match(markdown, /> \*\*Error:\*\* Rate limited &lt;img src=x onerror=alert\(1\)>/);
  assert.match(markdown, /Is 1 < 2\?/, 'a < that cannot open HTML stays readable');
});

test('Markdown never carries raw HTML from model or server text outside a fence', () => {
  const markdown = exportMarkdown(conversation, messages, toolCalls);
  // Drop fenced blocks (their content is literal), then no `<` may open a tag, comment or declaration.
  const outsideFences = markdown.replace(/^(`{3,})[a-z]*\n[\s\S]*?\n\1$/gm, '');
  assert.doesNotMatch(outsideFences, /<[A-Za-z/!?]/);
  assert.match(markdown, /&lt;script>alert\(1\)&lt;\/script>/);
});

test('escaping: prose, code spans and fences cannot be broken out of', () => {
  assert.equal(escapeProse('<a href=x>1 < 2</a> <!-- c --> <?php <![CDATA[ <http://x>'), '&lt;a href=x>1 < 2&lt;/a> &lt;!-- c --> &lt;?php &lt;![CDATA[ &lt;http://x>');
  assert.equal(inlineCode('a`b'), '``a`b``');
  assert.equal(inlineCode('`x'), '`` `x ``');
  assert.equal(inlineCode('two\nlines'), '`two lines`');
  assert.equal(fenced('````', 'text'), '`````text\n````\n`````');
});

test('a tool call whose tool_use block was never saved is still listed under its reply', () => {
  const cut = [message(1, { role: 'assistant', status: 'incomplete', content: [] })];
  const call = { ...toolCalls[0], messageId: 'm1', status: 'cancelled', result: undefined } as ToolCallRecord;
  const markdown = exportMarkdown({ ...conversation, title: '' }, cut, [call]);
  assert.match(markdown, /^# Untitled conversation/);
  assert.match(markdown, /\*\*Tool call\*\* `files__read`: server `files`, tool `read`, status cancelled/);
  assert.doesNotMatch(markdown, /Result/);
});

test('a call of a tool no server offered is exported as the model named it, with no empty server', () => {
  const asked = [message(1, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'calendar__add_event', input: {} }] })];
  const call = { ...toolCalls[0], id: 'toolu_9', messageId: 'm1', serverId: '', tool: 'calendar__add_event', modelName: 'calendar__add_event', status: 'error', isError: true, decision: undefined, durationMs: undefined, result: { error: 'not offered' } } as ToolCallRecord;
  const markdown = exportMarkdown(conversation, asked, [call]);
  assert.match(markdown, /\*\*Tool call\*\* `calendar__add_event`: no server offered it, status error/);
  assert.doesNotMatch(markdown, /server ``/);
});

test('images are named, not inlined, in Markdown; JSON keeps everything', () => {
  const withImage = [message(1, { role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] })];
  assert.match(exportMarkdown(conversation, withImage, []), /\*\[image, image\/png\]\*/);
  assert.doesNotMatch(exportMarkdown(conversation, withImage, []), /iVBOR/);

  const document = JSON.parse(exportJson(conversation, [...messages, ...withImage], toolCalls)) as Record<string, unknown>;
  assert.equal(document.format, EXPORT_FORMAT);
  assert.equal(document.version, 1);
  assert.deepEqual(document.conversation, conversation);
  assert.deepEqual(document.messages, [...messages, ...withImage]);
  assert.deepEqual(document.toolCalls, toolCalls);
});

test('a reply Retry replaced is exported with a note saying the model no longer reads it', () => {
  const retried = [
    message(1, { role: 'user', content: [{ type: 'text', text: 'hello' }] }),
    message(2, { role: 'assistant', status: 'error', error: 'the key was refused', content: [], replacedAt: 5 }),
    message(3, { role: 'assistant', content: [{ type: 'text', text: 'Hello again.' }] }),
  ];
  const markdown = exportMarkdown(conversation, retried, []);
  assert.match(markdown, /> \*\*Error:\*\* the key was refused\n\n> \*\*Replaced by Retry:\*\* the model was asked again/);
  assert.equal(markdown.match(/Replaced by Retry/g)?.length, 1, 'only the replaced reply carries the note');
});

test('an edited message and the reply it had are exported saying so, not as replaced by Retry', () => {
  const edited = [
    message(1, { role: 'user', content: [{ type: 'text', text: 'how many live in Paris?' }], replacedAt: 5 }),
    message(2, { role: 'assistant', content: [{ type: 'text', text: 'Two million.' }], replacedAt: 5 }),
    message(3, { role: 'user', content: [{ type: 'text', text: 'how many live in Lyon?' }] }),
    message(4, { role: 'assistant', content: [{ type: 'text', text: 'Half a million.' }] }),
  ];
  const markdown = exportMarkdown(conversation, edited, []);
  assert.match(markdown, /how many live in Paris\?\n\n> \*\*Edited:\*\* this is what you wrote before you edited it/);
  assert.match(markdown, /Two million\.\n\n> \*\*Replaced by your edit:\*\*/);
  assert.doesNotMatch(markdown, /Replaced by Retry/);
});

test("who decided a call is said in the reader's words: a call no one could be asked about was refused by Atrium, not by a policy of theirs", () => {
  const cut = [message(1, { role: 'assistant', status: 'complete', content: [] })];
  const said = (decidedBy: string, decision: 'allow' | 'deny') => {
    const call = { ...toolCalls[0], messageId: 'm1', decision, decidedBy, status: decision === 'allow' ? 'done' : 'denied' } as ToolCallRecord;
    return /status \w+, ((?:allowed|denied) by [^,\n]+)/.exec(exportMarkdown(conversation, cut, [call]))?.[1];
  };
  assert.equal(said('person', 'deny'), 'denied by you');
  assert.equal(said('grant', 'allow'), 'allowed by a permission you gave');
  assert.equal(said('mode', 'allow'), 'allowed by your approval setting');
  assert.equal(said('policy', 'deny'), 'denied by Atrium (no one was asked)');
});
