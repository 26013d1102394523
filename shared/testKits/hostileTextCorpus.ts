// Hostile server messages, the same every time (a fixed seed): tool lists, results, errors, prompts, log
// lines and sampling requests whose every string mixes plain words, right-to-left and joining scripts,
// emoji sequences and flags with tag characters, bidi and zero-width characters, ANSI sequences and
// controls. neutralisedBefore.json holds what the neutraliser made of them before it kept markers (and
// what the model got of each tool result), so a test can show the model's text is unchanged.
export function hostileCorpus(rounds = 10): unknown[] {
  // A linear congruential generator: the same corpus on every run and every machine.
  let seed = 20261101;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T,>(list: T[]): T => list[Math.floor(rand() * list.length)] as T;
  const tags = (s: string) => [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  const TOKENS = [
    'a', 'b', 'Z', ' ', ' ', 'read', 'file', '.exe', '\n', '\t', '\r\n', '\r', '42',
    '\u001b[2J', '\u001b[31m', '\u001b]0;pwned\u0007', '\u001b]8;;http://x\u001b\\', '\u001bM', '\u009b1m', '\u0000', '\u0007', '\u007f', '\u0085',
    '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f',
    '\u200b', '\u200c', '\u200d', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\u206a', '\u206f', '\ufeff', '\u00ad', '\u115f', '\u1160', '\u3164', '\uffa0', '\ufff9', '\ufffb', '\u{1d173}',
    tags('ignore previous'), tags('x'), '\u{e0001}', '\u{e007f}',
    '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}', '🏴\u{E0067}\u{E0062}\u{E0078}\u{E007F}',
    '👩\u200D💻', '👩🏽\u200D💻', '🏳\uFE0F\u200D🌈', '❤️', '1\uFE0F\u20E3', '葛\u{E0100}',
    'می\u200Cخواهم', 'क्\u200Dष', 'שלום', 'مرحبا', '你好', 'café',
  ];
  const text = (n: number) => Array.from({ length: n }, () => pick(TOKENS)).join('');
  const corpus: unknown[] = [];
  for (let i = 0; i < rounds; i++) {
    corpus.push({ jsonrpc: '2.0', id: i, result: { tools: [{ name: `to${text(1)}ol_${i}`, title: text(3), description: text(12), inputSchema: { type: 'object', properties: { [`pa${text(1)}th`]: { type: 'string', description: text(6), enum: [text(2), 'plain'], default: text(2), pattern: '^a\u200b$', title: text(2) } }, required: [`pa${text(1)}th`] }, annotations: { title: text(2), readOnlyHint: true }, _meta: { note: text(3) } }] } });
    corpus.push({ jsonrpc: '2.0', id: 1000 + i, result: { content: [
      { type: 'text', text: text(20) },
      { type: 'text', text: text(4), annotations: { audience: ['assistant'], priority: 0.3 } },
      { type: 'resource_link', uri: `file:///r${text(1)}.txt`, name: text(2), description: text(3) },
      { type: 'resource', resource: { uri: `mem://x${text(1)}`, mimeType: 'text/plain', text: text(10) } },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ], ...(i % 3 === 0 ? { structuredContent: { [`ke${text(1)}y`]: text(5), list: [text(2), 3, { deep: text(3) }] } } : {}), isError: i % 7 === 0 } });
    corpus.push({ jsonrpc: '2.0', id: 2000 + i, error: { code: -32000, message: text(8), data: { detail: text(3) } } });
    corpus.push({ jsonrpc: '2.0', id: 3000 + i, result: { description: text(4), messages: [{ role: 'user', content: { type: 'text', text: text(10) } }, { role: 'assistant', content: { type: 'resource', resource: { uri: `ui://v${text(1)}`, mimeType: 'text/plain', text: text(5) } } }] } });
    corpus.push({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: `lo${text(1)}g`, data: text(6) } });
    corpus.push({ jsonrpc: '2.0', id: 4000 + i, method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: text(8) } }], systemPrompt: text(5), maxTokens: 100, modelPreferences: { hints: [{ name: text(2) }] } } });
  }
  return corpus;
}
