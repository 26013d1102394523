// `atrium chat` and `atrium history`: a conversation turn from the terminal. The reply streams to
// stdout as it arrives, tool calls are shown as they start and end, and every pending request (a tool
// call under `--approve ask|ask-every`, a sampling request under `--sampling ask|approve`, an elicitation under
// `--elicit ask`) is put to the person on the terminal (terminalConsent.ts).

import { utcTime } from '../../shared/timeFromNow.ts';
import type { RunningHost } from '../app/hostCore.ts';
import type { TokenUsage } from '../../shared/domain.ts';
import { shellWord } from '../../shared/domain.ts';
import { ONE_SHOT_CLOSE_GRACE_MS, startHostCore } from '../app/hostCore.ts';
import { sayingWhomItWaitsFor } from './startingServersLine.ts';
import { terminalConsent } from './terminalConsent.ts';
import { reportConfigProblems } from './configProblems.ts';
import { settleLaunchApprovals } from './launchConsent.ts';
import { chainSecrets, conventionalKeySecrets, environmentSecrets, fileSecrets } from '../store/secrets.ts';
import type { CliInvocation } from './cliArgs.ts';
import { CliFailure } from './cliArgs.ts';
import { visible } from './formatOutput.ts';
import { checkProviderChoice } from '../app/providerPreflight.ts';
import { loadProviderSettings } from '../store/settingsStore.ts';
import { cliCredentialStore } from './signInCommand.ts';
import { followTasks } from './taskLines.ts';
import type { TaskLines } from './taskLines.ts';
import { interruptedExit, whenInterrupted } from './interruption.ts';

export interface ChatIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes without a newline: streamed text. */
  write(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Asks the person a question on the terminal; undefined when there is no terminal. */
  ask?(question: string, signal?: AbortSignal): Promise<string>;
  /** Tells a person at the terminal what the command waits for; undefined when standard error is not a terminal. */
  progress?(text: string): void;
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
  if (!invocation.conversation) checkProviderChoice(settings, choice);
  const started: RunningHost = await startHostCore({
    home,
    providerSettings: settings,
    ...(invocation.configPath !== undefined ? { configPath: invocation.configPath } : {}),
    roots: invocation.roots,
    ...(invocation.workspace !== undefined ? { workspace: invocation.workspace } : {}),
    ...(invocation.elicit === 'ask' ? {} : { elicitationAnswer: invocation.elicit }),
    openUrl: (url: string) => io.out(`\nOpen this address in your browser: ${visible(url)}`),
    // A flag decides for this run; without one, the choice saved in Settings does.
    ...(invocation.approve ? { approvalMode: invocation.approve } : {}),
    ...(invocation.sampling ? { samplingPolicy: invocation.sampling } : {}),
    runChoice: choice,
    secrets: chainSecrets(...(invocation.secretsFile ? [fileSecrets(invocation.secretsFile)] : []), environmentSecrets(io.env), conventionalKeySecrets(io.env)),
    keepAliveMs: 0,
    serverCloseGraceMs: ONE_SHOT_CLOSE_GRACE_MS,
    credentialStore: cliCredentialStore(home),
    ...(invocation.timeoutMs !== undefined ? { requestTimeoutMs: invocation.timeoutMs, connectTimeoutMs: invocation.timeoutMs } : {}),
  });
  const core = io.progress ? sayingWhomItWaitsFor(started, io.progress) : started;
  try {
    if (reportConfigProblems(await core.api.listConfigProblems({}), io.err)) return 1;
    // Until the turn begins, Ctrl+C ends the command where it is (a question, servers still starting).
    const settled = await Promise.race([
      (async () => {
        // Nothing runs that the person did not approve: asked on a terminal, else left off with the command that approves it.
        await settleLaunchApprovals(core, io, invocation.configPath, signal);
        return core.whenSettled();
      })(),
      whenInterrupted(signal),
    ]);
    for (const [id, status] of settled) {
      if (status.kind === 'error' || status.kind === 'restarting') io.err(`atrium: ${id} is not available: ${status.kind === 'error' ? status.message : status.lastError}`);
    }
    const shown = showTurn(core, io);
    const tasks = followTasks(core, io.err);
    let conversationId = invocation.conversation;
    // The turn's token counts come with its `done` event, as the window learns them.
    let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
    const cancel = () => {
      for (const id of conversationId ? [conversationId] : []) void core.api.cancelTurn({ conversationId: id });
    };
    signal?.addEventListener('abort', cancel, { once: true });
    const stopFollowing = core.events.on('chatEvent', ({ conversationId: id, event }) => {
      // A new conversation is known by its first event: one interrupted before it is cancelled then.
      if (conversationId === undefined && signal?.aborted) {
        conversationId = id;
        cancel();
      }
      conversationId ??= id;
      if (id === conversationId && event.type === 'done') usage = event.usage;
    });
    try {
      const { conversationId: id, stopReason } = await core.api.sendMessage({
        text,
        ...(invocation.conversation ? { conversationId: invocation.conversation } : {}),
        ...(choice.provider ? { provider: choice.provider } : {}),
        ...(choice.model ? { model: choice.model } : {}),
      });
      // The reply's last line is ended; a turn that printed nothing (it failed to start) adds no empty line.
      shown.endLine();
      // A turn that failed once it began is saved with its failure, as the window shows it; the terminal says it.
      if (stopReason === 'error') {
        const { failure, answered } = await turnFailure(core, id);
        // A conversation this command began, whose model neither said nor did anything, holds only what was
        // typed on this command line: nothing is left in the history for a command that did nothing.
        if (invocation.conversation === undefined && !answered) {
          await core.api.deleteConversation({ conversationId: id });
          throw new CliFailure(failure);
        }
        throw new CliFailure(`${failure} (what was done is saved: atrium chat "…" --conversation ${id} goes on from it)`);
      }
      io.err(`atrium: conversation ${id} (${usage.inputTokens} tokens in, ${usage.outputTokens} out${stopReason === 'end_turn' ? '' : `; stopped: ${stopReason}`})`);
      if (stopReason === 'cancelled') return signal?.aborted ? interruptedExit(signal, io.err) : 130;
      return await waitForTasks(tasks, id, io, signal);
    } finally {
      signal?.removeEventListener('abort', cancel);
      stopFollowing();
      shown.stop();
      tasks.stop();
    }
  } finally {
    await core.shutdown();
  }
}

/**
 * A call of the turn that runs on as a task is waited for (this run's servers end with it), its status on
 * stderr; its result is saved in the conversation, for the model's next request. Ctrl+C cancels it.
 */
async function waitForTasks(tasks: TaskLines, conversationId: string, io: ChatIo, signal: AbortSignal | undefined): Promise<number> {
  if (tasks.running(conversationId).length === 0) return 0;
  io.err('atrium: waiting for the tasks this turn started (Ctrl+C cancels them)');
  const interrupted = whenInterrupted(signal).catch(() => 'interrupted' as const);
  if ((await Promise.race([tasks.allEnded(conversationId), interrupted])) === 'interrupted') {
    await tasks.cancelRunning();
    return signal ? interruptedExit(signal, io.err) : 130;
  }
  io.err(`atrium: the tasks' results are saved in the conversation; the model reads them with your next message: atrium chat "…" --conversation ${conversationId}`);
  return 0;
}

/** Why the conversation's last reply failed, as saved with it, and whether the model answered anything in it. */
async function turnFailure(core: RunningHost, conversationId: string): Promise<{ failure: string; answered: boolean }> {
  const { messages } = await core.api.getConversation({ conversationId });
  return {
    failure: messages.findLast((message) => message.role === 'assistant' && message.error !== undefined)?.error ?? 'the turn failed',
    answered: messages.some((message) => message.role !== 'user' && message.content.some((part) => part.type !== 'text' || part.text.trim() !== '')),
  };
}

/** Prints the turn as it happens, until `stop`; `endLine` ends a line the reply left open. */
function showTurn(core: RunningHost, io: ChatIo): { stop(): void; endLine(): void } {
  const consent = terminalConsent({ respond: core.api.respondPending, withdraw: (id, reason) => void core.api.withdrawPending({ id, reason }) }, io);
  // Streamed text may stop mid-line; what Atrium adds (a tool call, its result) always gets lines of its own.
  let atLineStart = true;
  const line = (text: string) => {
    if (!atLineStart) io.write('\n');
    io.out(text);
    atLineStart = true;
  };
  const offs = [
    core.events.on('chatEvent', ({ event }) => {
      switch (event.type) {
        case 'text':
          if (event.delta === '') break;
          io.write(visible(event.delta));
          atLineStart = event.delta.endsWith('\n');
          break;
        case 'image':
          line(`[image ${visible(event.mimeType)}, ${Math.round((event.data.length * 3) / 4 / 1024)} KB; see it with: atrium history export <conversation> --format json]`);
          break;
        case 'tool_call':
          if (event.status === 'running') line(`[tool ${visible(event.serverId)}/${visible(event.tool)} ${visible(JSON.stringify(event.arguments))}]`);
          break;
        case 'tool_result':
          line(`[→ ${event.status}: ${visible(event.summary.split('\n')[0] ?? '')}]`);
          break;
        case 'notice':
          // A withheld tool is reviewed here with its own command, not on a Tools tab this front end has not.
          io.err(
            event.withheld
              ? `atrium: ${visible(event.withheld.serverId)}/${visible(event.withheld.tool)} is withheld: it changed since it was approved. See the change and approve it with: atrium tools approve ${visible(shellWord(event.withheld.serverId))} ${visible(shellWord(event.withheld.tool))}`
              : `atrium: ${event.message}`,
          );
          break;
        default:
          break;
      }
    }),
    core.events.on('pendingOpened', consent.opened),
    core.events.on('pendingClosed', consent.closed),
  ];
  return {
    stop: () => offs.forEach((off) => off()),
    endLine: () => {
      if (!atLineStart) io.write('\n');
      atLineStart = true;
    },
  };
}

export async function runHistory(invocation: CliInvocation, home: string, io: ChatIo): Promise<number> {
  const core = await startHostCore({ home, onlyServers: [], keepAliveMs: 0 });
  try {
    const [action, id] = invocation.args;
    if (action === undefined) {
      const search = invocation.search?.trim();
      const conversations = await core.api.listConversations(search ? { search } : {});
      if (invocation.json) io.out(JSON.stringify(conversations, null, 2));
      else if (conversations.length === 0) io.out(search ? `No conversations match “${visible(search)}”.` : 'No conversations.');
      else {
        for (const c of conversations) {
          io.out(`${c.id}  ${utcTime(c.updatedAt)}  ${visible(c.title)}`);
          // Where a search found it, when its title does not say.
          if (c.excerpt !== undefined) io.out(`    ${visible(c.excerpt)}`);
        }
      }
      return 0;
    }
    if (action !== 'export' || !id) {
      io.err('atrium: usage: atrium history [--search "WORDS"] | atrium history export <conversation id> [--format markdown|json]');
      return 2;
    }
    io.out(await core.api.exportConversation({ conversationId: id, format: invocation.format }));
    return 0;
  } finally {
    await core.shutdown();
  }
}
