// Tools and the prompt cache (issue 17): a conversation of three turns over the 211 real tools of 19 npm
// servers, in which the model searches for tools twice and calls what it found, sent through each
// provider's real SDK to a fake server speaking its wire format. For each provider, what the requests
// repeat of the one before as an unchanged prefix — what a provider's prompt cache can reuse — and the
// tool definitions the model has in context. With native deferral (Anthropic, OpenAI Responses) every
// tool is sent deferred in the same order each time and a search's result loads what it found, so the
// prefix stays whole; with the generic search (Chat Completions, compatible servers) the tools sent
// grow with each search, which breaks the prefix at the tools, near its start.
// Reported per provider: of the bytes each request repeats from the one before, the share in the unchanged
// prefix; the requests at which that prefix broke (everything after the break is read again); and the
// tool definitions in the model's context. Target: native deferral breaks the prefix at no request.
//   node bench/toolPromptCache.ts
import type { ProviderKind } from '../shared/contract.ts';
import { runTurn } from '../main/chat/agentLoop.ts';
import { createProvider } from '../main/chat/providers/createProvider.ts';
import { scriptedTools } from '../main/chat/testKits/scriptedTools.ts';
import { startFakeAnthropic } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { FakeLlmServer, FakeTurn } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeOpenAi } from '../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { startFakeOpenAiResponses } from '../e2e/fixtures/llm/fakeOpenAiResponsesServer.ts';
import { memoryTurnStore } from '../e2e/fixtures/memoryTurnStore.ts';
import { catalogTools } from './toolCatalog.ts';

const { tools, servers } = catalogTools();
const turns = ['open an issue about the login bug', 'tell the team on slack', 'and add a comment to the issue'];
const script = (): FakeTurn[] => [
  { toolCalls: [{ name: 'atrium_search_tools', input: { query: 'create github issue', limit: 5 } }] },
  { toolCalls: [{ name: 'github__create_issue', input: { owner: 'me', repo: 'app', title: 'Login fails' } }] },
  { text: 'Opened issue #1.' },
  { toolCalls: [{ name: 'atrium_search_tools', input: { query: 'post slack message', limit: 5 } }] },
  { toolCalls: [{ name: 'slack__slack_post_message', input: { channel_id: 'C1', text: 'Issue #1 is open' } }] },
  { text: 'Posted.' },
  { toolCalls: [{ name: 'github__add_issue_comment', input: { owner: 'me', repo: 'app', issue_number: 1, body: 'More detail' } }] },
  { text: 'Commented.' },
];

const paths: { label: string; kind: ProviderKind; start: (script: FakeTurn[]) => Promise<FakeLlmServer> }[] = [
  { label: 'Anthropic (defer_loading, tool references)', kind: 'anthropic', start: startFakeAnthropic },
  { label: 'OpenAI Responses (client tool_search)', kind: 'openai-responses', start: startFakeOpenAiResponses },
  { label: 'Chat Completions (generic search)', kind: 'openai', start: startFakeOpenAi },
];

/** A request in the order a provider's cache reads it: tools, then the system prompt, then the conversation. */
function inCacheOrder(body: Record<string, unknown>): string {
  return JSON.stringify([body['tools'] ?? [], body['system'] ?? body['instructions'] ?? '', body['messages'] ?? body['input'] ?? []]);
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

console.log(`${tools.length} tools from ${servers} servers; a conversation of ${turns.length} turns, two tool searches, three calls`);
console.log('provider path                                  requests  prefix kept  prefix broken at  tool tokens in context (first → last)');
const breaks: Record<string, number> = {};
for (const path of paths) {
  const llm = await path.start(script());
  const provider = createProvider({ id: 'bench', kind: path.kind, baseUrl: llm.url, apiKeySecret: 'bench' }, { get: async () => 'sk-bench-not-real' });
  const store = memoryTurnStore();
  // What the conversation loaded is kept from turn to turn as the host keeps it (most recent first).
  const kit = scriptedTools(tools, { run: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  try {
    for (const text of turns) {
      await runTurn(
        { conversationId: 'c', userContent: [{ type: 'text', text }], provider, model: 'bench-model', tools: kit.plan('c'), signal: new AbortController().signal },
        { store, tools: kit.tools, calls: kit.calls, onEvent: () => undefined },
      );
    }
  } finally {
    await llm.close();
  }
  const bodies = llm.requests.filter((request) => request.method === 'POST').map((request) => request.body as Record<string, unknown>);
  let kept = 0;
  let repeated = 0;
  const brokenAt: number[] = [];
  for (let i = 1; i < bodies.length; i++) {
    const before = inCacheOrder(bodies[i - 1] ?? {});
    const prefix = commonPrefix(before, inCacheOrder(bodies[i] ?? {}));
    kept += prefix;
    repeated += before.length;
    // The closing brackets of the one before always differ: anything shorter is a break.
    if (prefix < before.length - 2) brokenAt.push(i + 1);
  }
  breaks[path.label] = brokenAt.length;
  const inContext = bodies.map((body) => Math.ceil(loadedDefinitionChars(body) / 4));
  const broken = brokenAt.length === 0 ? 'never' : `${brokenAt.length} (request ${brokenAt.join(', ')})`;
  console.log(`${path.label.padEnd(46)} ${String(bodies.length).padStart(8)}  ${((kept / repeated) * 100).toFixed(1).padStart(10)}%  ${broken.padEnd(16)}  ${inContext[0]} → ${inContext.at(-1)}`);
}

/** The characters of tool definitions the model has in context: deferred ones count once a result loads them. */
function loadedDefinitionChars(body: Record<string, unknown>): number {
  const sent = (body['tools'] ?? []) as { name?: string; defer_loading?: boolean; function?: { name: string } }[];
  const conversation = JSON.stringify(body['messages'] ?? body['input'] ?? []);
  return sent
    .filter((tool) => tool.defer_loading !== true || conversation.includes(`"tool_name":"${tool.name}"`) || conversation.includes(`"name":"${tool.name}","parameters"`))
    .reduce((sum, tool) => sum + JSON.stringify({ ...tool, defer_loading: undefined }).length, 0);
}

const nativeBreaks = (breaks[paths[0]!.label] ?? 1) + (breaks[paths[1]!.label] ?? 1);
console.log(`target: native deferral never breaks the cached prefix ${nativeBreaks === 0 ? 'met' : 'MISSED'} (the generic search breaks it ${breaks[paths[2]!.label]} times, once per search)`);
