// Ranks tools for a task described in words: the model's tool search, the window's and `atrium tools
// --search` use it.
// BM25F over each tool's fields — its name and title (weighted most), its server, its description, its
// parameters' names and descriptions — with identifiers split into words (camelCase, snake_case,
// kebab-case), words reduced to their stems (Porter: "issues" and "issue" are one term), and whole words
// only ("read" never matches "thread"). A query's words also count, at half weight, through the few
// synonyms people use for the same action ("open an issue" finds create_issue; "folder" finds directory).
// One server fills at most half the results while others match too, so keyword-stuffed tools cannot
// crowd out every other server's (tool squatting). Markers of hidden characters are not words.

import { stemmer } from 'stemmer';
import type { ToolSearchHit, ToolSummary } from '../../../shared/domain.ts';
import { withoutMarks } from '../../../shared/serverText.ts';

export type RankedTool = ToolSearchHit;

export interface RankingOptions {
  /**
   * The plain baseline the benchmark compares against: name and description only, split on
   * non-alphanumerics, no identifier splitting, stemming or synonyms.
   */
  plain?: boolean;
}

// Words that carry no meaning for choosing a tool.
/** Added for a query that is a tool's exact name: above any score the words could reach. */
const EXACT_NAME_SCORE = 1_000;

const STOP_WORDS = new Set(
  'a an and are as at be been by can could do does for from have how i if in into is it its me my of on or our please some that the their them then there these this those to us was we what when where which who will with would you your all any tool tools using use'.split(' '),
);

/** BM25 parameters: term saturation, and how much a long field's length counts against it. */
const K1 = 1.2;
const B = 0.75;
const SYNONYM_WEIGHT = 0.5;

type Field = 'name' | 'server' | 'description' | 'parameters';
const FIELD_WEIGHTS: Record<Field, number> = { name: 3, server: 1.5, description: 1, parameters: 0.6 };

/** Groups of words people use for one action or thing; each word stands for the others at half weight. */
const SYNONYM_GROUPS = [
  'create new add make open start',
  'delete remove drop erase forget clear',
  'update edit change modify rename patch replace set',
  'list show enumerate all',
  'get read fetch retrieve view open load detail details',
  'search find lookup look query locate',
  'send post message say tell reply',
  'comment reply note remark',
  'pull pr',
  'merge mr',
  'repository repo project',
  'directory folder dir',
  'image picture photo',
  'screenshot capture snapshot',
  'navigate go visit browse url goto',
  'click press tap',
  'type fill enter input write',
  'web internet online',
  'directions route drive driving walking travel',
  'distance far long',
  'geocode coordinates latitude longitude',
  'address location',
  'remember memory knowledge store record',
  'docs documentation library',
  'count number many',
  'sql database table select',
  'page website site',
  'user member people person',
  'channel room',
  'reaction emoji',
  'thread conversation',
  'file document',
  'crawl spider',
  'scrape extract',
  'research investigate',
  'compress gzip zip',
  'sum add',
  'dialog popup alert',
  'upload attach',
  'dropdown select option',
  'tab tabs',
];

const synonymsOf = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const stems = group.split(' ').map((word) => stemmer(word));
    for (const stem of stems) {
      const others = map.get(stem) ?? new Set<string>();
      for (const other of stems) if (other !== stem) others.add(other);
      map.set(stem, others);
    }
  }
  return map;
})();

/** Words of a text, identifiers split ("getPullRequest", "get_pull_request", "get-pull-request": get pull request). */
export function wordsOf(text: string, options: RankingOptions = {}): string[] {
  const split = options.plain
    ? text
    : text
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .replace(/([a-zA-Z])(\d)/g, '$1 $2');
  return split
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    // One letter says nothing; one digit may be all that tells tools apart (tool_9, s3).
    .filter((word) => (word.length > 1 || /\d/.test(word)) && !STOP_WORDS.has(word))
    .map((word) => (options.plain ? word : stemmer(word)));
}

interface IndexedTool {
  tool: ToolSummary;
  /** Per field: term → how often it occurs; and the field's length in terms. */
  fields: Record<Field, { terms: Map<string, number>; length: number }>;
}

export interface ToolIndex {
  /** The best matches first; only tools that match at least one word of the query. */
  search(query: string, limit: number): RankedTool[];
}

/** An index over the tools, built once per catalog and queried per search. */
export function createToolIndex(tools: readonly ToolSummary[], options: RankingOptions = {}): ToolIndex {
  const fieldTexts = (tool: ToolSummary): Record<Field, string> => {
    if (options.plain) return { name: tool.name, server: '', description: tool.description ?? '', parameters: '' };
    return {
      name: `${tool.name} ${tool.title ?? ''}`,
      server: tool.serverId,
      // A long description says what matters first; the rest is mostly usage notes.
      description: withoutMarks(tool.description ?? '').slice(0, 1_000),
      parameters: parameterText(tool.inputSchema),
    };
  };
  const indexed: IndexedTool[] = tools.map((tool) => {
    const texts = fieldTexts(tool);
    const fields = {} as IndexedTool['fields'];
    for (const field of Object.keys(FIELD_WEIGHTS) as Field[]) {
      const words = wordsOf(withoutMarks(texts[field]), options);
      const terms = new Map<string, number>();
      for (const word of words) terms.set(word, (terms.get(word) ?? 0) + 1);
      fields[field] = { terms, length: words.length };
    }
    return { tool, fields };
  });
  const averageLength = {} as Record<Field, number>;
  for (const field of Object.keys(FIELD_WEIGHTS) as Field[]) {
    averageLength[field] = Math.max(1, indexed.reduce((sum, entry) => sum + entry.fields[field].length, 0) / Math.max(1, indexed.length));
  }
  // How many tools mention each term anywhere: rare terms say more.
  const documentFrequency = new Map<string, number>();
  for (const entry of indexed) {
    const seen = new Set<string>();
    for (const field of Object.keys(FIELD_WEIGHTS) as Field[]) for (const term of entry.fields[field].terms.keys()) seen.add(term);
    for (const term of seen) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const idf = (term: string) => {
    const n = documentFrequency.get(term) ?? 0;
    return Math.log(1 + (indexed.length - n + 0.5) / (n + 0.5));
  };
  /** BM25F: each field's frequency weighted and normalised by its length, then saturated once. */
  const termScore = (entry: IndexedTool, term: string) => {
    let weighted = 0;
    for (const field of Object.keys(FIELD_WEIGHTS) as Field[]) {
      const { terms, length } = entry.fields[field];
      const frequency = terms.get(term) ?? 0;
      if (frequency === 0) continue;
      weighted += (FIELD_WEIGHTS[field] * frequency) / (1 - B + B * (length / averageLength[field]));
    }
    return weighted === 0 ? 0 : (idf(term) * weighted * (K1 + 1)) / (weighted + K1);
  };

  return {
    search(query, limit) {
      const terms = [...new Set(wordsOf(query, options))];
      // A tool named exactly (its name, the model's name for it, or server/name) comes first.
      const named = query.trim().toLowerCase();
      const isNamed = (tool: ToolSummary) => !options.plain && [tool.name, tool.modelName, `${tool.serverId}/${tool.name}`].some((name) => name.toLowerCase() === named);
      if (terms.length === 0 && !indexed.some((entry) => isNamed(entry.tool))) return [];
      const ranked: RankedTool[] = [];
      for (const entry of indexed) {
        let score = isNamed(entry.tool) ? EXACT_NAME_SCORE : 0;
        for (const term of terms) {
          const own = termScore(entry, term);
          // A synonym counts only where the word itself does not, and at half weight.
          if (own > 0 || options.plain) {
            score += own;
            continue;
          }
          let best = 0;
          for (const synonym of synonymsOf.get(term) ?? []) best = Math.max(best, termScore(entry, synonym));
          score += SYNONYM_WEIGHT * best;
        }
        if (score > 0) ranked.push({ tool: entry.tool, score });
      }
      ranked.sort(byScore);
      return options.plain ? ranked.slice(0, Math.max(0, limit)) : diversified(ranked, Math.max(0, limit));
    },
  };
}

const byScore = (a: RankedTool, b: RankedTool) => b.score - a.score || (a.tool.modelName < b.tool.modelName ? -1 : a.tool.modelName > b.tool.modelName ? 1 : 0);

/**
 * The best matches, so that no server crowds out the others (a server may stuff its tools with every
 * keyword): while another server has a match, one server fills at most half the places (rounded up);
 * places the others cannot fill go to the best of the rest. A tool named exactly is never held back.
 */
function diversified(ranked: readonly RankedTool[], limit: number): RankedTool[] {
  const share = Math.max(1, Math.ceil(limit / 2));
  const picked: RankedTool[] = [];
  const waiting: RankedTool[] = [];
  const taken = new Map<string, number>();
  for (const hit of ranked) {
    if (picked.length >= limit) break;
    const count = taken.get(hit.tool.serverId) ?? 0;
    if (count >= share && hit.score < EXACT_NAME_SCORE) {
      waiting.push(hit);
      continue;
    }
    picked.push(hit);
    taken.set(hit.tool.serverId, count + 1);
  }
  for (const hit of waiting) {
    if (picked.length >= limit) break;
    picked.push(hit);
  }
  return picked.sort(byScore);
}

/** The names and descriptions of a tool's parameters, one level deep (where a model reads them). */
function parameterText(schema: unknown): string {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return '';
  return Object.entries(properties as Record<string, unknown>)
    .map(([name, property]) => {
      const description = (property as { description?: unknown } | null)?.description;
      return `${name} ${typeof description === 'string' ? withoutMarks(description).slice(0, 200) : ''}`;
    })
    .join(' ');
}
