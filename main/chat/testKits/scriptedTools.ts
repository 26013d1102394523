// The tools side of a turn for the agent loop's unit tests: the real tool-call pipeline and the real turn
// plan, over a list of tools given in the test, a scripted consent answer and a scripted server. What the
// server was asked, and what the conversation took in, are recorded for the test to check.

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolSummary } from '../../../shared/domain.ts';
import type { GateDecision } from '../../host/consentGate.ts';
import { createToolCallPipeline } from '../../host/tools/toolCallPipeline.ts';
import { createToolIndex } from '../../host/tools/toolRanking.ts';
import { planTurn } from '../../host/tools/turnPlan.ts';
import { CachedSchemaValidator } from '../../mcp/schemaValidatorCache.ts';
import type { LoadedToolEntry } from '../../store/loadedToolStore.ts';
import type { TurnToolPlan, TurnTools } from '../turnTools.ts';

export interface ScriptedToolsOptions {
  /** Why every tool is withheld from the model (a changed tool), if it is. */
  withheld?: string;
  /** The consent answer for a call; allowed by default. */
  gate?: (tool: ToolSummary) => GateDecision;
  /** What the server answers; `{a + b}` as text by default. */
  run?: (serverId: string, tool: string, args: Record<string, unknown>) => CallToolResult;
}

export function scriptedTools(tools: readonly ToolSummary[], options: ScriptedToolsOptions = {}) {
  const served: Record<string, unknown>[] = [];
  const servedNames: string[] = [];
  const tookIn: string[] = [];
  const kept = new Map<string, LoadedToolEntry[]>();
  const withheld = () => options.withheld;
  const calls = createToolCallPipeline({
    catalog: { resolve: async (serverId, name) => tools.find((t) => t.serverId === serverId && t.name === name), withheld, unavailable: () => undefined },
    consent: {
      check: async ({ tool }) => options.gate?.(tool) ?? { allowed: true, decidedBy: 'policy', reason: 'test' },
      tookIn: (content) => void tookIn.push(content.kind === 'tool' ? content.tool.name : content.name),
    },
    runner: {
      call: async (serverId, tool, args) => {
        served.push(args);
        servedNames.push(`${serverId}/${tool}`);
        return options.run?.(serverId, tool, args) ?? { content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }] };
      },
    },
    validator: new CachedSchemaValidator(),
    audit: { append: () => undefined as never },
  });
  const catalog: TurnTools = {
    plan: (conversationId, context) => planTurn(tools, withheld, { ...(context !== undefined ? { context } : {}), kept: conversationId === undefined ? [] : (kept.get(conversationId) ?? []) }),
    search: (query, limit) => createToolIndex(tools.filter(() => withheld() === undefined)).search(query, limit).map((hit) => hit.tool),
    noteLoaded: (conversationId, modelNames, how = { kind: 'called' }) => {
      const before = (kept.get(conversationId) ?? []).filter((entry) => !modelNames.includes(entry.modelName));
      kept.set(conversationId, [...modelNames.map((modelName) => ({ modelName, how })), ...before]);
    },
  };
  /** The plan of a turn in `conversationId`, for a model with this much context (the usual for its kind, unless `reported`). */
  const plan = (conversationId = 'c1', contextTokens?: number, reported = false): TurnToolPlan => catalog.plan(conversationId, contextTokens === undefined ? undefined : { tokens: contextTokens, reported });
  return { tools: catalog, calls, plan, served, servedNames, tookIn };
}
