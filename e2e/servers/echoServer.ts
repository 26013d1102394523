// The well-behaved stdio server most tests talk to: simple tools, structured output, progress with
// cancellation, environment passing, and the server-to-client requests (roots, elicitation,
// sampling) that the host must route to the person.
//
// By default it is a 2025-era server: it speaks only the initialize handshake and sends real
// roots/list, elicitation/create and sampling/createMessage requests. With --both-eras it also
// answers 2026-07-28 `server/discover`, and then asks for the same input through
// `input_required` results instead.
// With --pid-file PATH it writes its process id there, so a test can make it die mid-request; with
// --cwd-file PATH, the folder it runs in.
//   node e2e/servers/echoServer.ts [--both-eras] [--pid-file PATH] [--cwd-file PATH]
import { writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { 'both-eras': { type: 'boolean', default: false }, 'pid-file': { type: 'string' }, 'cwd-file': { type: 'string' } } });
if (values['pid-file']) writeFileSync(values['pid-file'], String(process.pid));
// Where it was started, for tests of the folder a server runs in.
if (values['cwd-file']) writeFileSync(values['cwd-file'], process.cwd());

const ASK_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Name' },
    confirm: { type: 'boolean' as const, title: 'Confirm' },
  },
  required: ['name'],
};

/** A form with several rules, so several wrong fields can be reported at once. */
const PROFILE_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Your name', minLength: 2 },
    homepage: { type: 'string' as const, title: 'Home page', format: 'uri' as const },
    age: { type: 'integer' as const, title: 'Age', minimum: 0, maximum: 150 },
  },
  required: ['name', 'homepage'],
};

/** A form whose first field asks for what the specification forbids a form to ask for. */
const SECRET_SCHEMA = {
  type: 'object' as const,
  properties: {
    apiKey: { type: 'string' as const, title: 'API key' },
    retries: { type: 'integer' as const, minimum: 0, maximum: 5, default: 3 },
  },
  required: ['apiKey', 'retries'],
};

/** A form with a field of each checked kind: a range, a format and a choice. */
const CHECKED_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Name' },
    age: { type: 'integer' as const, title: 'Age', minimum: 0, maximum: 150 },
    email: { type: 'string' as const, title: 'Email', format: 'email' as const },
    colour: { type: 'string' as const, title: 'Colour', enum: ['red', 'green'] },
  },
  required: ['name', 'age'],
};

const FORM_SCHEMAS = { name: ASK_SCHEMA, secret: SECRET_SCHEMA, profile: PROFILE_SCHEMA, checked: CHECKED_SCHEMA };

const SIGN_IN_URL = 'https://xn--exmple-cua.com/sign-in?session=42';

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** Tells the test (on stderr, which the host keeps as the server's log) that a call was cancelled. */
function noteCancelled(ctx: ServerContext, tool: string): void {
  if (ctx.mcpReq.signal.aborted) process.stderr.write(`${tool} cancelled ${String(ctx.mcpReq.id)}\n`);
}

/** Reports progress `last` times, `intervalMs` apart, toward `total`; when cancelled, notes it and throws. */
async function reportProgress(
  ctx: ServerContext,
  tool: string,
  { last, total, intervalMs, message }: { last: number; total: number; intervalMs: number; message(step: number): string },
): Promise<void> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  try {
    for (let step = 1; step <= last; step++) {
      await delay(intervalMs, undefined, { signal: ctx.mcpReq.signal });
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: step, total, message: message(step) } });
      }
    }
  } catch (error) {
    noteCancelled(ctx, tool);
    throw error;
  }
}

function createEchoServer(era: 'legacy' | 'modern'): McpServer {
  const server = new McpServer({ name: 'echo-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  // One log notification per call lets tests check logging/setLevel filtering.
  const logCall = (ctx: ServerContext, tool: string) => ctx.mcpReq.log('info', `called ${tool}`, 'echo-server');

  server.registerTool(
    'echo',
    { description: 'Returns its text argument.', inputSchema: z.object({ text: z.string() }) },
    async ({ text: value }, ctx) => {
      await logCall(ctx, 'echo');
      return text(value);
    },
  );

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers; the sum is also returned as structuredContent.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ a, b }, ctx) => {
      await logCall(ctx, 'add');
      const sum = a + b;
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    },
  );

  server.registerTool(
    'long_op',
    {
      description: 'Reports progress `steps` times, `interval_ms` apart; stops early when cancelled.',
      inputSchema: z.object({
        steps: z.number().int().min(1).default(5),
        interval_ms: z.number().int().min(0).default(100),
      }),
    },
    async ({ steps, interval_ms }, ctx) => {
      await logCall(ctx, 'long_op');
      await reportProgress(ctx, 'long_op', { last: steps, total: steps, intervalMs: interval_ms, message: (step) => `step ${step}/${steps}` });
      return text(`done ${steps}`);
    },
  );

  server.registerTool(
    'slow',
    {
      description: 'Never finishes by itself: reports progress toward `total` every `interval_ms` (up to total - 1), then waits until cancelled.',
      inputSchema: z.object({
        total: z.number().int().min(2).default(100),
        interval_ms: z.number().int().min(1).default(50),
      }),
    },
    async ({ total, interval_ms }, ctx) => {
      await logCall(ctx, 'slow');
      await reportProgress(ctx, 'slow', { last: total - 1, total, intervalMs: interval_ms, message: (step) => `step ${step} of ${total}` });
      // Progress must only increase, so at total - 1 it falls silent and waits.
      const { signal } = ctx.mcpReq;
      if (!signal.aborted) await once(signal, 'abort');
      noteCancelled(ctx, 'slow');
      throw new Error('cancelled');
    },
  );

  server.registerTool(
    'env',
    {
      description: 'Returns the value of the environment variable `name`, or "<unset>".',
      inputSchema: z.object({ name: z.string() }),
    },
    async ({ name }, ctx) => {
      await logCall(ctx, 'env');
      return text(process.env[name] ?? '<unset>');
    },
  );

  server.registerTool('roots', { description: 'Asks the client for its roots; returns their URIs as JSON.' }, async (ctx) => {
    await logCall(ctx, 'roots');
    if (era === 'legacy') {
      const { roots } = await ctx.mcpReq.send({ method: 'roots/list' });
      return text(JSON.stringify(roots.map((root) => root.uri)));
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return text(JSON.stringify(answer.roots.map((root) => root.uri)));
  });

  server.registerTool(
    'ask',
    {
      description:
        'Sends an elicitation and returns {action, content} as JSON: a form (name, confirm), a form asking for an API key (form "secret"), a profile form (form "profile": name, homepage, age), a form with a range, a format and a choice (form "checked"), or a sign-in page (form "url").',
      inputSchema: z.object({ message: z.string().default('What is your name?'), form: z.enum(['name', 'secret', 'profile', 'checked', 'url']).default('name') }),
    },
    async ({ message, form }, ctx): Promise<CallToolResult | InputRequiredResult> => {
      await logCall(ctx, 'ask');
      if (era === 'legacy') {
        const { action, content } =
          form === 'url'
            ? await ctx.mcpReq.elicitInput({ mode: 'url', message, url: SIGN_IN_URL, elicitationId: 'sign-in-42' })
            : await ctx.mcpReq.elicitInput({ mode: 'form', message, requestedSchema: FORM_SCHEMAS[form] });
        return text(JSON.stringify({ action, content }));
      }
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'ask');
      if (answer.kind !== 'elicit') {
        const request =
          form === 'url' ? inputRequired.elicitUrl({ message, url: SIGN_IN_URL }) : inputRequired.elicit({ message, requestedSchema: FORM_SCHEMAS[form] });
        return inputRequired({ inputRequests: { ask: request } });
      }
      return text(JSON.stringify({ action: answer.action, content: answer.content }));
    },
  );

  server.registerTool(
    'sample',
    {
      description: 'Asks the client to sample an LLM reply to `prompt`; returns the reply text.',
      inputSchema: z.object({ prompt: z.string(), max_tokens: z.number().int().min(1).default(100) }),
    },
    async ({ prompt, max_tokens }, ctx): Promise<CallToolResult | InputRequiredResult> => {
      await logCall(ctx, 'sample');
      const params = {
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt } }],
        maxTokens: max_tokens,
      };
      let content: unknown;
      if (era === 'legacy') {
        content = (await ctx.mcpReq.requestSampling(params)).content;
      } else {
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'sample');
        if (answer.kind !== 'sampling') {
          return inputRequired({ inputRequests: { sample: inputRequired.createMessage(params) } });
        }
        content = answer.result.content;
      }
      const first = Array.isArray(content) ? (content[0] as unknown) : content;
      const reply = first as { type?: string; text?: string } | undefined;
      return text(reply?.type === 'text' && typeof reply.text === 'string' ? reply.text : JSON.stringify(content));
    },
  );

  return server;
}

if (values['both-eras']) {
  serveStdio(({ era }) => createEchoServer(era));
} else {
  await createEchoServer('legacy').connect(new StdioServerTransport());
}
