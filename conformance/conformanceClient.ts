#!/usr/bin/env node
// The client under test for the official conformance suite (`npm run conformance`): Atrium's own host
// core, headless, with one remote server at the URL the suite gives. Each scenario is driven the way a
// person would use Atrium (list the tools, call one, accept a form); every protocol detail on the wire
// comes from the host core, so the suite measures Atrium's real connection layer.
//
// The Skills scenarios (sep-2640-*) too: the person opens the server's skills (listed, nothing read), then
// picks the first one in the composer. Atrium asks them (they agree), reads and checks its SKILL.md, and
// gives it to the model — a scripted one here, which reads each file the skill lists, as a model following
// a skill would. A skill Atrium refuses is said to the person, and nothing more of it is read.
//
// The auth/* scenarios are met the way a person would: the server's 401 starts Atrium's sign-in, and
// the authorization page is "opened" in a headless browser that follows the suite's auto-approving
// authorization server back to Atrium's loopback redirect. Credentials the suite hands over (a
// pre-registered client, client-credentials keys, a workload assertion, an enterprise ID token) go into
// the server's `oauth` block as named secrets, exactly as a person would configure them.
//
// Usage: conformance-client <server-url>, with MCP_CONFORMANCE_SCENARIO (and, for some scenarios,
// MCP_CONFORMANCE_CONTEXT) set by the suite. Exits 0, or 1 with one line on stderr.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AtriumApi, JsonObject, SkillSummary } from '../shared/contract.ts';
import type { LlmProvider, ModelStreamEvent } from '../main/chat/llmTypes.ts';
import { isPersonFacing } from '../main/api/personFacingErrors.ts';
import type { ToolSummary } from '../shared/domain.ts';
import { fixedElicitation } from '../main/host/brokers.ts';
import type { OAuthServerConfig } from '../main/mcp/config/oauthConfig.ts';
import { approvingBrowser } from '../e2e/fixtures/approvingBrowser.ts';
import type { SecretSource } from '../main/store/secrets.ts';
import type { HostCore } from '../main/app/hostCore.ts';
import { startHostCore } from '../main/app/hostCore.ts';
import { ServerError } from '../main/mcp/connection/serverError.ts';
import { NO_RESTARTS } from '../main/mcp/connection/restartPolicy.ts';

const SERVER_ID = 'test-server';
/**
 * The Client ID Metadata Document URL the suite's authorization servers accept as a client_id (they do
 * not fetch it); where a server advertises CIMD support, Atrium uses it instead of registering.
 */
const CIMD_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** What the person does with the one configured server; every call goes through the typed API. */
class Person {
  private readonly api: AtriumApi;
  private readonly events: HostCore['events'];
  readonly context: Record<string, unknown>;

  constructor(api: AtriumApi, events: HostCore['events'], context: Record<string, unknown>) {
    this.api = api;
    this.events = events;
    this.context = context;
  }

  tools(): Promise<ToolSummary[]> {
    return this.api.listTools({ serverId: SERVER_ID });
  }

  async tool(name: string): Promise<ToolSummary> {
    const tool = (await this.tools()).find((t) => t.name === name);
    if (!tool) throw new ConformanceFailure(`the server lists no tool named "${name}"`);
    return tool;
  }

  async call(tool: string, args: JsonObject = {}): Promise<JsonObject> {
    return this.api.callTool({ serverId: SERVER_ID, tool, arguments: args });
  }

  /** A call the server may refuse as part of the scenario; its refusal is not the client's failure. */
  async callMayFail(tool: string, args: JsonObject = {}): Promise<void> {
    await this.call(tool, args).catch((error: unknown) => {
      if (!(error instanceof ServerError)) throw error;
    });
  }

  /** Calls a tool that runs as a task until it is cancelled, and presses its Cancel once the task runs. */
  async callAndCancel(tool: string): Promise<void> {
    const running = new Promise<string>((resolve) => {
      const off = this.events.on('taskChanged', (task) => {
        if (task.tool !== tool || task.endedAt !== undefined) return;
        off();
        resolve(task.key);
      });
    });
    const call = this.callMayFail(tool);
    await this.api.cancelTask({ key: await running });
    await call;
  }

  /** Reads a resource the scenario may answer wrongly (with a task): its refusal is not the client's failure. */
  async readFirstResourceMayFail(): Promise<void> {
    await this.readFirstResource().catch((error: unknown) => {
      if (!(error instanceof ServerError)) throw error;
    });
  }

  async readFirstResource(): Promise<void> {
    const [first] = await this.api.listResources({ serverId: SERVER_ID });
    if (first) await this.api.readResource({ serverId: SERVER_ID, uri: first.uri });
  }

  async getFirstPrompt(): Promise<void> {
    const [first] = await this.api.listPrompts({ serverId: SERVER_ID });
    if (first) await this.api.getPrompt({ serverId: SERVER_ID, name: first.name, arguments: {} });
  }

  /** Servers › the server › Skills: what it offers, from its listing alone. */
  async skills(): Promise<SkillSummary[]> {
    return (await this.api.listSkills({ serverId: SERVER_ID })).flatMap((list) => list.skills);
  }

  /** Picks a skill in the composer: Atrium asks (the person agrees), checks it, and the model follows it. A refusal is Atrium's answer to the person, not a failure. */
  async runSkill(skill: SkillSummary): Promise<void> {
    try {
      await this.api.runSkill({ serverId: skill.serverId, uri: skill.uri });
    } catch (error) {
      if (!isPersonFacing(error)) throw error;
      process.stderr.write(`conformance-client: the person is told: ${error.message.split('\n')[0]}\n`);
    }
  }
}

/**
 * The model the person talks to, scripted: on the skill it is given, it reads each of the skill's other
 * files (as `skillFiles` lists them), then says it is done.
 */
function skillFollowingModel(skillFiles: () => { server: string; skill: string; file: string }[]): LlmProvider {
  const usage = { inputTokens: 0, outputTokens: 0 };
  return {
    id: 'scripted',
    kind: 'anthropic',
    defersTools: false,
    listModels: async () => ['scripted'],
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      const readSoFar = request.messages.some((message) => message.content.some((block) => block.type === 'tool_use'));
      if (!readSoFar && request.tools.some((tool) => tool.name === 'atrium_read_skill_file')) {
        for (const [index, input] of skillFiles().entries()) yield { type: 'tool_call', id: `read-${index}`, name: 'atrium_read_skill_file', input };
        yield { type: 'done', stopReason: 'tool_use', usage };
        return;
      }
      yield { type: 'text_delta', text: 'Done.' };
      yield { type: 'done', stopReason: 'end_turn', usage };
    },
  };
}

class ConformanceFailure extends Error {}

type ScenarioScript = (person: Person) => Promise<void>;

/** Connecting and listing the tools is all most scenarios need: the host does that when it starts. */
const justConnect: ScenarioScript = async (person) => {
  await person.tools();
};

/** The scenarios a person can act out; an unknown scenario just connects and lists tools. */
const scripts: Record<string, ScenarioScript> = {
  initialize: justConnect,
  'request-metadata': justConnect,
  'json-schema-ref-no-deref': justConnect,
  tools_call: async (person) => {
    if ((await person.tools()).some((t) => t.name === 'add_numbers')) await person.call('add_numbers', { a: 5, b: 3 });
  },
  'elicitation-sep1034-client-defaults': async (person) => {
    await person.call('test_client_elicitation_defaults');
  },
  'sse-retry': async (person) => {
    await person.call('test_reconnection');
  },
  'json-schema-2020-12-preservation': async (person) => {
    // Hands the schema Atrium shows for the tool back to the server, which compares it with what it sent.
    const focal = await person.tool('json_schema_2020_12_tool');
    await person.call('json_schema_echo', { schema: focal.inputSchema as JsonObject });
  },
  'http-standard-headers': async (person) => {
    const [first] = await person.tools();
    if (first) await person.call(first.name);
    await person.readFirstResource();
    await person.getFirstPrompt();
  },
  'http-custom-headers': async (person) => {
    for (const call of toolCallsFrom(person.context)) await person.call(call.name, call.arguments);
  },
  'http-invalid-tool-headers': async (person) => {
    for (const tool of await person.tools()) await person.callMayFail(tool.name, { region: 'us-west1' });
  },
  // The tasks extension's draft client scenario (SEP-2663; not yet in the suite's release): a task that
  // completes, a plain result, a task that fails, one cancelled with tasks/cancel, and a request that
  // cannot be a task answered with one (ping in the scenario; the 2026-07-28 revision has no ping, so
  // where the server answers another such request with a task, Atrium refuses that one).
  'tasks-client-lifecycle': async (person) => {
    await person.call('quick_task');
    await person.call('sync_echo');
    await person.callMayFail('failing_task');
    await person.callAndCancel('cancel_task');
    await person.readFirstResourceMayFail();
  },
  // SEP-2640 lazy retrieval: the person looks at the skills; nothing of them is read.
  'sep-2640-client-no-prefetch': async (person) => {
    await person.skills();
  },
  'sep-2322-client-request-state': async (person) => {
    await person.call('test_mrtr_echo_state');
    await person.call('test_mrtr_no_state');
    await person.call('test_mrtr_unrelated');
    await person.callMayFail('test_mrtr_no_result_type');
  },
};

/** SEP-2640 verification: the person picks the first skill; what fails a check is refused before the model sees it. */
const useFirstSkill: ScenarioScript = async (person) => {
  const [first] = await person.skills();
  if (!first) throw new ConformanceFailure('the server lists no skill');
  await person.runSkill(first);
};
for (const check of ['digest', 'size', 'frontmatter', 'unlisted']) scripts[`sep-2640-client-verify-${check}`] = useFirstSkill;

/** Every auth/* server guards its tools with OAuth: signing in happens on the way to calling one. */
const authScript: ScenarioScript = async (person) => {
  await person.tools();
  await person.call('test-tool');
};

/**
 * The `oauth` block a person would write for the credentials the suite hands over, and the secrets it
 * names; undefined for scenarios where Atrium registers itself.
 */
function oauthSetup(scenario: string, context: Record<string, unknown>): { oauth: OAuthServerConfig; secrets: Record<string, string> } | undefined {
  const text = (key: string): string => {
    const value = context[key];
    if (typeof value !== 'string') throw new ConformanceFailure(`the suite gave no "${key}" for ${scenario}`);
    return value;
  };
  switch (scenario) {
    case 'auth/pre-registration':
      return { oauth: { clientId: text('client_id'), clientSecret: { secret: 'client-secret' } }, secrets: { 'client-secret': text('client_secret') } };
    case 'auth/client-credentials-basic':
      return {
        oauth: { grant: 'client_credentials', clientId: text('client_id'), clientSecret: { secret: 'client-secret' } },
        secrets: { 'client-secret': text('client_secret') },
      };
    case 'auth/client-credentials-jwt': {
      const algorithm = typeof context.signing_algorithm === 'string' ? (context.signing_algorithm as OAuthServerConfig['signingAlgorithm']) : undefined;
      return {
        oauth: { grant: 'client_credentials', clientId: text('client_id'), privateKey: { secret: 'private-key' }, ...(algorithm ? { signingAlgorithm: algorithm } : {}) },
        secrets: { 'private-key': text('private_key_pem') },
      };
    }
    case 'auth/wif-jwt-bearer':
      return { oauth: { grant: 'jwt-bearer', clientId: text('client_id'), assertion: { secret: 'workload-jwt' } }, secrets: { 'workload-jwt': text('valid_jwt') } };
    case 'auth/enterprise-managed-authorization':
      return {
        oauth: {
          grant: 'enterprise',
          clientId: text('client_id'),
          clientSecret: { secret: 'client-secret' },
          idp: { tokenEndpoint: text('idp_token_endpoint'), clientId: text('idp_client_id'), idToken: { secret: 'id-token' } },
        },
        secrets: { 'client-secret': text('client_secret'), 'id-token': text('idp_id_token') },
      };
    default:
      return undefined;
  }
}

function secretTable(table: Record<string, string>): SecretSource {
  return { get: async (name) => table[name] };
}

function toolCallsFrom(context: Record<string, unknown>): Array<{ name: string; arguments: JsonObject }> {
  const calls = context.toolCalls;
  if (!Array.isArray(calls)) return [];
  return calls.filter(
    (c): c is { name: string; arguments: JsonObject } => typeof c === 'object' && c !== null && typeof (c as { name?: unknown }).name === 'string',
  );
}

function parseContext(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

async function run(url: string, scenario: string, context: Record<string, unknown>): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'atrium-conformance-'));
  let core: HostCore | undefined;
  try {
    const configPath = join(home, 'servers.json');
    // The files the scripted model reads: those the person's skill lists, beside its SKILL.md.
    let skillFiles: { server: string; skill: string; file: string }[] = [];
    const setup = oauthSetup(scenario, context);
    await writeFile(configPath, JSON.stringify({ servers: { [SERVER_ID]: { type: 'http', url, ...(setup ? { oauth: setup.oauth } : {}) } } }));
    core = await startHostCore({
      home,
      configPath,
      // The person accepts every form without typing anything: the form's defaults are the answer.
      elicitation: fixedElicitation({ action: 'accept', content: {} }),
      restartPolicy: NO_RESTARTS,
      keepAliveMs: 0,
      secrets: secretTable(setup?.secrets ?? {}),
      signIn: { mode: 'automatic', openAuthorizationUrl: approvingBrowser(), clientMetadataUrl: CIMD_CLIENT_METADATA_URL },
      providerSettings: { providers: [{ id: 'scripted', kind: 'anthropic' }], default: { provider: 'scripted', model: 'scripted' } },
      makeProvider: () => skillFollowingModel(() => skillFiles),
    });
    // The person agrees to the skill they picked (and to nothing a skill asks of another server).
    core.events.on('pendingOpened', (record) => {
      if (record.kind !== 'skill') return;
      void core?.api.respondPending({ id: record.id, outcome: { effect: record.payload.question === 'use' ? 'allow' : 'deny' } });
      if (record.payload.question === 'use') {
        const { skill } = record.payload;
        skillFiles = skill.files === 'dynamic' ? [] : skill.files.slice(1).map((file) => ({ server: skill.serverId, skill: skill.uri, file: file.path }));
      }
    });
    const [problem] = core.configProblems;
    if (problem) throw new ConformanceFailure(problem.message);
    // A new server waits for the person's approval of what it contacts: the person here approves it.
    if ((await core.hub.whenSettled()).get(SERVER_ID)?.kind === 'needs-approval') {
      const review = await core.api.reviewServerLaunch({ serverId: SERVER_ID });
      await core.api.approveServerLaunch({ serverId: SERVER_ID, hash: review.hash });
    }
    const status = (await core.hub.whenSettled()).get(SERVER_ID);
    if (status?.kind !== 'ready') {
      throw new ConformanceFailure(status?.kind === 'error' ? status.message : `the server is not ready (${status?.kind ?? 'missing'})`);
    }
    const script = scripts[scenario] ?? (scenario.startsWith('auth/') ? authScript : justConnect);
    await script(new Person(core.api, core.events, context));
  } finally {
    await core?.shutdown();
    await rm(home, { recursive: true, force: true });
  }
}

const [url] = process.argv.slice(2);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
if (!url || !scenario) {
  process.stderr.write('usage: MCP_CONFORMANCE_SCENARIO=<scenario> conformance-client <server-url>\n');
  process.exit(2);
}
try {
  await run(url, scenario, parseContext(process.env.MCP_CONFORMANCE_CONTEXT));
  process.exit(0);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`conformance-client: ${scenario}: ${message.split('\n')[0]}\n`);
  process.exit(1);
}
