import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSummary } from '../../../shared/domain.ts';
import { definitionTokens, deferralVerdict as shouldSearch } from './toolDeferral.ts';

const tool = (serverId: string, name: string, description: string): ToolSummary => ({ serverId, name, modelName: `${serverId}__${name}`, description, inputSchema: { type: 'object' }, enabled: true });
const usual = (tokens: number) => ({ tokens, reported: false });
const reported = (tokens: number) => ({ tokens, reported: true });

test('the model searches past 64 tools, or sooner when the definitions would take more than a quarter of its context', () => {
  const small = Array.from({ length: 40 }, (_, i) => tool('s', `tool_${i}`, 'Does one small thing'));
  const large = Array.from({ length: 12 }, (_, i) => ({ ...tool('l', `tool_${i}`, 'Does one big thing. '.repeat(60)), inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'x'.repeat(400) } } } }));
  assert.equal(shouldSearch(small, { context: usual(200_000) }).searching, false, '40 small tools fit');
  assert.equal(shouldSearch([...small, ...small, ...small], { context: usual(200_000) }).searching, true, '120 tools are too many to choose among');
  const local = shouldSearch(large, { context: reported(8_192) });
  assert.equal(local.searching, true, '12 large tools take more than a quarter of an 8k context');
  assert.match(local.why ?? '', /^the 12 tools' definitions \(about 5,054 tokens\) would take more than a quarter of the model's context \(8,192 tokens, as its server reports\)$/);
  assert.equal(shouldSearch(large, { context: usual(32_000) }).searching, false, 'the same 12 fit a 32k context');
  assert.match(shouldSearch(large, { context: usual(16_000) }).why ?? '', /of the model's context \(taken as 16,000 tokens for this kind of provider\)$/, 'a context not reported is said to be the usual one');
  assert.equal(shouldSearch(small, { threshold: 10, context: usual(200_000) }).searching, true, 'a count the person chose still applies');
  const stricter = shouldSearch(large, { context: usual(200_000), contextShare: 0.01 });
  assert.equal(stricter.searching, true, 'a smaller share the person chose applies');
  assert.match(stricter.why ?? '', /would take more than 1% of the model's context/);
  assert.equal(shouldSearch(large, { context: reported(8_192), contextShare: 0.7 }).searching, false, 'and a larger one');
  assert.equal(definitionTokens(tool('a', 'b', 'cccc')), Math.ceil(('a__b'.length + 4 + JSON.stringify({ type: 'object' }).length) / 4));
});
