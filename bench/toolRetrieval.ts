// Tool retrieval (issue 17): with the real tool lists of 19 MCP servers from npm (bench/fixtures/
// toolCatalog.json, captured by bench/captureToolCatalog.ts) and 130 tasks phrased as a person would ask
// (bench/fixtures/toolTasks.json, each with the tool or tools that do it), how often the right tool is
// first (recall@1), in the first five (recall@5), and the mean reciprocal rank — for Atrium's ranking,
// a plain BM25 over names and descriptions, and the substring scorer Atrium used before.
// Then the tokens of tool definitions a turn sends: every tool, the search tool alone, and the search
// tool with what one search loads (estimated at 4 characters a token, the same for each).
// Target: recall@5 ≥ 0.9; definitions after a search ≥ 85% fewer than sending all.
//   node bench/toolRetrieval.ts [--misses]
import type { ToolSummary } from '../shared/domain.ts';
import { createToolIndex } from '../main/host/tools/toolRanking.ts';
import { searchToolDefinition } from '../main/chat/toolSearch.ts';
import { catalogTools, readBenchFixture } from './toolCatalog.ts';

interface Task {
  task: string;
  expect: string[];
}

const { tools, servers } = catalogTools();
const tasks = readBenchFixture<Task[]>('toolTasks.json');
const id = (tool: ToolSummary) => `${tool.serverId}/${tool.name}`;

/** The scorer Atrium used before issue 17 (main/chat/toolSearch.ts until then): keyword substrings, the name counting 3. */
function substringSearch(query: string, limit: number): ToolSummary[] {
  const stop = new Set(['in', 'on', 'of', 'to', 'an', 'the', 'for', 'and', 'or', 'with', 'my', 'me', 'is', 'it', 'at', 'by', 'from', 'this', 'that']);
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1 && !stop.has(w));
  return tools
    .map((tool) => {
      const name = `${tool.serverId} ${tool.name} ${tool.title ?? ''}`.toLowerCase();
      const description = (tool.description ?? '').toLowerCase();
      return { tool, score: words.reduce((sum, word) => sum + (name.includes(word) ? 3 : 0) + (description.includes(word) ? 1 : 0), 0) };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.tool.modelName < b.tool.modelName ? -1 : 1))
    .slice(0, limit)
    .map((s) => s.tool);
}

const atrium = createToolIndex(tools);
const plain = createToolIndex(tools, { plain: true });
const rankers: Record<string, (query: string) => ToolSummary[]> = {
  'Atrium (BM25F, split, stemmed, synonyms)': (query) => atrium.search(query, 20).map((r) => r.tool),
  'plain BM25 (name + description)': (query) => plain.search(query, 20).map((r) => r.tool),
  'substring scorer (before)': (query) => substringSearch(query, 20),
};

const showMisses = process.argv.includes('--misses');
const results: Record<string, { at1: number; at5: number; mrr: number }> = {};
for (const [name, rank] of Object.entries(rankers)) {
  let at1 = 0;
  let at5 = 0;
  let mrr = 0;
  for (const task of tasks) {
    const found = rank(task.task).map(id);
    const position = found.findIndex((tool) => task.expect.includes(tool));
    if (position === 0) at1 += 1;
    if (position >= 0 && position < 5) at5 += 1;
    if (position >= 0) mrr += 1 / (position + 1);
    if (showMisses && name.startsWith('Atrium') && (position < 0 || position >= 5)) console.log(`miss: "${task.task}" → ${found.slice(0, 5).join(', ') || 'nothing'} (wanted ${task.expect.join(' or ')})`);
  }
  results[name] = { at1: at1 / tasks.length, at5: at5 / tasks.length, mrr: mrr / tasks.length };
}

console.log(`${tools.length} tools from ${servers} servers, ${tasks.length} tasks`);
console.log('ranking                                      recall@1  recall@5  MRR');
for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(44)} ${r.at1.toFixed(3).padStart(8)}  ${r.at5.toFixed(3).padStart(8)}  ${r.mrr.toFixed(3)}`);

const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);
const definition = (tool: ToolSummary) => ({ name: tool.modelName, description: tool.description ?? '', input_schema: tool.inputSchema });
const all = tokens(tools.map(definition));
const searchOnly = tokens([searchToolDefinition]);
const afterSearch = tasks.map((task) => tokens([searchToolDefinition, ...atrium.search(task.task, 8).map((r) => definition(r.tool))]));
const meanAfter = afterSearch.reduce((a, b) => a + b, 0) / afterSearch.length;
console.log(`tool definitions per turn: all ${all} tokens; the search tool alone ${searchOnly}; after one search (8 loaded), mean ${meanAfter.toFixed(0)} (${((1 - meanAfter / all) * 100).toFixed(1)}% fewer than all)`);
const at5 = results['Atrium (BM25F, split, stemmed, synonyms)']?.at5 ?? 0;
console.log(`targets: recall@5 ≥ 0.9 ${at5 >= 0.9 ? 'met' : 'MISSED'}; definitions after a search ≥ 85% fewer ${1 - meanAfter / all >= 0.85 ? 'met' : 'MISSED'}`);
