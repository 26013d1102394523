// `atrium chat` and `atrium history`: a conversation turn from the terminal. The reply streams to
// stdout as it arrives, tool calls are shown as they start and end, and with `--approve ask` every call
// that needs consent is asked on the terminal (without a terminal, it is denied and the person told how
// to decide up front).

import { createInterface } from 'node:readline/promises';
import type { PendingRequestView } from '../../shared/domain.ts';
import type { ToolApprovalAnswer, ToolApprovalPayload } from '../host/consentGate.ts';
import type { HostCore } from '../host/hostCore.ts';
import { startHostCore } from '../host/hostCore.ts';
import { fixedElicitation } from '../host/brokers.ts';
import { chainSecrets, conventionalKeySecrets, environmentSecrets, fileSecrets } from '../store/secrets.ts';
import type { CliInvocation } from './cliArgs.ts';
import { visible } from './formatOutput.ts';
import { chooseProvider, loadProviderSettings } from '../chat/providerSettings.ts';

export interface ChatIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes without a newline: streamed text. */
  write(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Asks the person a question on the terminal; undefined when there is no terminal. */
  ask?(question: string): Promise<string>;
}

export async function runChat(invocation: CliInvocation, home: string, io: ChatIo, signal?: AbortSignal): Promise<number> {
  const [text = ''] = invocation.args;
  const choice = {
    ...(invocation.provider ? { provider: invocation.provider } : {}),
    ...(invocation.model ? { model: invocation.model } : {}),
    ...(invocation.baseUrl ? { baseUrl: invocation.baseUrl } : {}),
  };
  const settings = await loadProviderSettings(home);
  // Without a conversation to continue, a missing provider is known before any server is started.
  if (!invocation.conversation) chooseProvider(settings, choice);
  const core = await startHostCore({
    home,
    providerSettings: settings,
    ...(invocation.configPath !== undefined ? { configPath: invocation.configPath } : {}),
    roots: invocation.roots,
    elicitation: fixedElicitation(invocation.elicit),
    approvalMode: invocation.approve,
    samplingPolicy: invocation.sampling,
    samplingChoice: choice,
    secrets: chainSecrets(...(invocation.secretsFile ? [fileSecrets(invocation.secretsFile)] : []), environmentSecrets(io.env), conventionalKeySecrets(io.env)),
    keepAliveMs: 0,
    ...(invocation.timeoutMs !== undefined ? { requestTimeoutMs: invocation.timeoutMs, connectTimeoutMs: invocation.timeoutMs } : {}),
  });
  try {
    for (const problem of core.configProblems) io.err(`atrium: ${problem.message}`);
    for (const [id, status] of await core.hub.whenSettled()) {
      if (status.kind === 'error' || status.kind === 'restarting') io.err(`atrium: ${id} is not available: ${status.kind === 'error' ? status.message : status.lastError}`);
    }
    const stopShowing = showTurn(core, io);
    let conversationId = invocation.conversation;
    const onAbort = () => {
      for (const id of conversationId ? [conversationId] : []) core.conversations.chat.cancel(id);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    core.events.on('chatEvent', ({ conversationId: id }) => (conversationId ??= id));
    try {
      const { conversationId: id, outcome } = await core.conversations.chat.send({
        content: [{ type: 'text', text }],
        ...(invocation.conversation ? { conversationId: invocation.conversation } : {}),
        ...choice,
      });
      io.write('\n');
      io.err(`atrium: conversation ${id} (${outcome.usage.inputTokens} tokens in, ${outcome.usage.outputTokens} out${outcome.stopReason === 'end_turn' ? '' : `; stopped: ${outcome.stopReason}`})`);
      return outcome.stopReason === 'cancelled' ? 130 : 0;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stopShowing();
    }
  } finally {
    await core.shutdown();
  }
}

/** Prints the turn as it happens; returns the function that stops printing. */
function showTurn(core: HostCore, io: ChatIo): () => void {
  const offs = [
    core.events.on('chatEvent', ({ event }) => {
      switch (event.type) {
        case 'text':
          io.write(visible(event.delta));
          break;
        case 'tool_call':
          if (event.status === 'running') io.out(`\n[tool ${visible(event.serverId)}/${visible(event.tool)} ${visible(JSON.stringify(event.arguments))}]`);
          break;
        case 'tool_result':
          io.out(`[→ ${event.status}: ${visible(event.summary.split('\n')[0] ?? '')}]`);
          break;
        case 'notice':
          io.err(`atrium: ${event.message}`);
          break;
        default:
          break;
      }
    }),
    core.events.on('pendingOpened', (record) => void settle(core, io, record)),
  ];
  return () => offs.forEach((off) => off());
}

async function settle(core: HostCore, io: ChatIo, record: PendingRequestView): Promise<void> {
  if (record.kind !== 'tool_approval') return;
  const { tool, arguments: args, elevated, annotationsTrusted, reason } = record.payload as ToolApprovalPayload;
  const name = `${visible(tool.serverId)}/${visible(tool.name)}`;
  let answer: ToolApprovalAnswer = { effect: 'deny', scope: 'once', target: 'tool' };
  if (!io.ask) {
    io.err(`atrium: ${name} needs your approval, but there is no terminal to ask on; it was denied (use --approve readonly|all|none to decide up front)`);
  } else {
    io.out(`\n${elevated ? '⚠ ' : ''}${name} wants to run with ${visible(JSON.stringify(args))}`);
    io.out(`  ${visible(reason)}${annotationsTrusted ? '' : ' (this server is not trusted: its annotations are not believed)'}`);
    const reply = (await io.ask('  Allow? [y] once, [c] this conversation, [a] always, [n] no, [N] never: ')).trim();
    answer = answerFrom(reply);
  }
  // The request may have been withdrawn meanwhile (the turn was cancelled); then there is nothing to settle.
  await core.api.respondPending({ id: record.id, outcome: { ...answer } }).catch(() => undefined);
}

export function answerFrom(reply: string): ToolApprovalAnswer {
  switch (reply) {
    case 'y':
    case 'Y':
      return { effect: 'allow', scope: 'once', target: 'tool' };
    case 'c':
      return { effect: 'allow', scope: 'conversation', target: 'tool' };
    case 'a':
      return { effect: 'allow', scope: 'always', target: 'tool' };
    case 'N':
      return { effect: 'deny', scope: 'always', target: 'tool' };
    default:
      return { effect: 'deny', scope: 'once', target: 'tool' };
  }
}

/** A terminal question, when standard input is a terminal. */
export function terminalAsk(): ((question: string) => Promise<string>) | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  };
}

export async function runHistory(invocation: CliInvocation, home: string, io: ChatIo): Promise<number> {
  const core = await startHostCore({ home, onlyServers: [], keepAliveMs: 0 });
  try {
    const [action, id] = invocation.args;
    if (action === undefined) {
      const conversations = await core.api.listConversations({});
      if (invocation.json) io.out(JSON.stringify(conversations, null, 2));
      else if (conversations.length === 0) io.out('No conversations.');
      else for (const c of conversations) io.out(`${c.id}  ${new Date(c.updatedAt).toISOString()}  ${visible(c.title)}`);
      return 0;
    }
    if (action !== 'export' || !id) {
      io.err('atrium: usage: atrium history [export <conversation id> [--format markdown|json]]');
      return 2;
    }
    io.out(await core.api.exportConversation({ conversationId: id, format: invocation.format }));
    return 0;
  } finally {
    await core.shutdown();
  }
}
