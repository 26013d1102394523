// Runs one CLI command against the same host core the app uses, then stops every server. Expected
// failures (bad usage, a missing command, a crash, a timeout) end in one line on stderr naming the
// server and the cause, and a non-zero exit code; never a stack trace.

import type { ServerStatus } from '../../shared/domain.ts';
import { shellWord } from '../../shared/domain.ts';
import type { HostCore, RunningHost } from '../app/hostCore.ts';
import { NO_RESTARTS, ONE_SHOT_CLOSE_GRACE_MS, startHostCore } from '../app/hostCore.ts';
import { sayingWhomItWaitsFor } from './startingServersLine.ts';
import { importServersFile } from '../app/importServersFile.ts';
import { resolveAtriumHome } from '../store/appHome.ts';
import { alreadyRunningSentence, runningHost } from '../store/dataFolderLock.ts';
import type { CliInvocation } from './cliArgs.ts';
import { CliFailure, USAGE, UsageError, informationAnswer, parseCli } from './cliArgs.ts';
import { nearestWord } from '../../shared/nearestWord.ts';
import * as format from './formatOutput.ts';
import { commandLineText, isPersonFacing } from '../api/personFacingErrors.ts';
import { runChat, runHistory } from './chatCommand.ts';
import { terminalConsent } from './terminalConsent.ts';
import { reportConfigProblems } from './configProblems.ts';
import { settleLaunchApprovals } from './launchConsent.ts';
import { runServersAction, serversAction } from './serversCommand.ts';
import { runInstall, runRegistrySearch } from './installCommand.ts';
import { describeBlock } from '../../shared/installs.ts';
import { runWorkspaces } from './workspaceCommand.ts';
import { runTrace } from './traceCommand.ts';
import { cliCredentialStore, runSignIn, runSignOut } from './signInCommand.ts';
import { leaveDamagedFilesInPlace, logDataFileProblemsTo, prepareDataFolder } from '../store/dataFile.ts';
import { personFilesDamaged } from '../app/personFiles.ts';
import { safeJson } from '../../shared/serverText.ts';
import { followTasks } from './taskLines.ts';
import { answerCommand } from './answerCommand.ts';
import { interruptedExit, whenInterrupted } from './interruption.ts';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Writes without a newline (a streamed reply). */
  write(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Asks a question on the terminal; absent when standard input is not a terminal. */
  ask?(question: string, signal?: AbortSignal): Promise<string>;
  /** Tells a person at the terminal what the command waits for; absent when standard error is not a terminal (a script reads it). */
  progress?(text: string): void;
}

const TARGETED = new Set(['call', 'read', 'prompt', 'skill', 'trace']);
/** Commands that start servers (history and workspaces open the data folder without any). */
const STARTS_SERVERS = new Set(['servers', 'tools', 'resources', 'templates', 'prompts', 'call', 'read', 'prompt', 'skills', 'skill', 'trace', 'chat', 'sign-in', 'sign-out', 'install']);
/** Commands that list what the configured servers offer. */
const LISTS_SERVERS = new Set(['servers', 'tools', 'resources', 'templates', 'prompts', 'skills']);
/** Commands that start no configured server (an install starts only, once approved, what it installs). */
const STARTS_NONE = new Set(['registry', 'install']);
/** Commands that start the host core their own way. */
const OWN_HOST = new Set(['chat', 'history', 'workspaces', 'sign-in', 'sign-out']);

export async function runCli(argv: readonly string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const answer = informationAnswer(argv);
  if (answer !== undefined) {
    io.out(answer);
    return 0;
  }
  let invocation: CliInvocation;
  try {
    invocation = parseCli(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      // A mistake is said in one line, with where to read more: the whole usage would push it off the screen.
      if (error.message) io.err(`atrium: ${error.message}\nRun "atrium --help" to see every command and option.`);
      else io.err(USAGE);
      return 2;
    }
    throw error;
  }
  const home = resolveAtriumHome(io.env);
  // A data file found damaged is said on stderr as it is found; the folder is made private first.
  logDataFileProblemsTo(io.err);
  // A command runs once and ends: a file the person edits that it finds damaged stays where it is, theirs to fix.
  leaveDamagedFilesInPlace();
  await prepareDataFolder(home);
  if (await personFilesDamaged(home, { importing: invocation.command === 'import', ...(invocation.configPath !== undefined ? { configPath: invocation.configPath } : {}) })) return 1;
  if (invocation.command === 'import') return runImport(invocation, home, io);
  // Changing the workspaces changes what a running host holds (the roots its servers see): made here, the
  // window would show one workspace active while its servers saw another's folders.
  const changesWorkspaces = invocation.command === 'workspaces' && invocation.args.length > 0;
  if (STARTS_SERVERS.has(invocation.command) || changesWorkspaces) {
    // One host per data folder: a second set of servers beside the window's would fight over their
    // sign-ins, locks and files. Only the window hosts hold the folder; one-shot commands only check.
    const holder = await runningHost(home);
    if (holder) {
      io.err(`atrium: ${alreadyRunningSentence(home, holder)}`);
      if (invocation.command === 'trace') io.err(`Its Servers view shows each server's messages as they pass: the server's Trace tab.`);
      if (changesWorkspaces) io.err(`Its Roots view makes, changes and picks workspaces; "atrium workspaces" lists them here.`);
      io.err(`Use it there, or stop it first. To run this command apart from it, give it its own data folder: ATRIUM_HOME=/another/folder atrium ${invocation.command} …`);
      return 1;
    }
  }
  if (OWN_HOST.has(invocation.command)) {
    try {
      switch (invocation.command) {
        case 'workspaces':
          return await runWorkspaces(invocation, home, io);
        case 'sign-in':
          return await runSignIn(invocation, home, io, signal);
        case 'sign-out':
          return await runSignOut(invocation, home, io);
        case 'chat':
          return await runChat(invocation, home, io, signal);
        default:
          return await runHistory(invocation, home, io);
      }
    } catch (error) {
      return failureExit(error, io, signal);
    }
  }

  const action = serversAction(invocation);
  // Following a trace runs until Ctrl+C: the server is kept alive (pinged, restarted) as the app keeps it.
  const following = invocation.command === 'trace' && invocation.follow;
  const serverScope = targetedServer(invocation) ?? invocation.server;
  let core: HostCore | undefined;
  let stopTasks = () => undefined as unknown;
  try {
    core = await startHostCore({
      home,
      ...(invocation.configPath !== undefined ? { configPath: invocation.configPath } : {}),
      roots: invocation.roots,
      ...(invocation.workspace !== undefined ? { workspace: invocation.workspace } : {}),
      ...(serverScope !== undefined ? { onlyServers: [serverScope] } : {}),
      // Approving pins a definition, adding and removing change the servers file: they start nothing else.
      ...(action !== undefined || STARTS_NONE.has(invocation.command) ? { startServers: false } : {}),
      environment: io.env,
      ...(invocation.elicit === 'ask' ? {} : { elicitationAnswer: invocation.elicit }),
      // A server's sampling request during a call (a task's, too) is settled as --sampling says, as in `atrium chat`.
      ...(invocation.sampling ? { samplingPolicy: invocation.sampling } : {}),
      openUrl: (url: string) => io.out(`Open this address in your browser: ${format.visible(url)}`),
      // A one-shot command reports a failure instead of waiting through restarts.
      ...(following ? {} : { restartPolicy: NO_RESTARTS, keepAliveMs: 0 }),
      serverCloseGraceMs: ONE_SHOT_CLOSE_GRACE_MS,
      // Remote servers are signed in to with `atrium sign-in`, which keeps the sign-in here.
      credentialStore: cliCredentialStore(home),
      ...(invocation.timeoutMs !== undefined ? { requestTimeoutMs: invocation.timeoutMs, connectTimeoutMs: invocation.timeoutMs } : {}),
    });
    if (io.progress) core = sayingWhomItWaitsFor(core, io.progress);
    const started = core;
    const consent = terminalConsent({ respond: core.api.respondPending, withdraw: (id, reason) => void started.api.withdrawPending({ id, reason }) }, io);
    core.events.on('pendingOpened', consent.opened);
    core.events.on('pendingClosed', consent.closed);
    const problems = await core.api.listConfigProblems({});
    if (reportConfigProblems(problems, io.err)) return 1;
    // Every entry was refused: a listing would say "no servers" to someone who has some, to fix.
    if (problems.length > 0 && LISTS_SERVERS.has(invocation.command) && action === undefined && (await core.api.listServers({})).length === 0) {
      io.err(`atrium: none of the servers in ${core.configPath} could be read: fix the entries named above, then run the command again.`);
      return 1;
    }
    // An entry with a mistake may be removed by its name; nothing else can be done with it.
    const removable = action === 'remove' && serverScope !== undefined && core.registry.nameHolder(serverScope) === 'unreadable entry';
    if (serverScope !== undefined && action !== 'add' && !removable && !(await core.api.listServers({})).some((server) => server.id === serverScope)) {
      // Only the one named was started: the others are in the servers file.
      const meant = nearestWord(serverScope, core.registry.all().map((server) => server.id));
      throw new CliFailure(`there is no server named "${serverScope}" in ${core.configPath}${meant ? `: did you mean "${meant}"?` : ''}`);
    }
    // A call that runs as a task says where it stands on stderr; Ctrl+C cancels it (tasks/cancel) before the command ends.
    const tasks = followTasks(started, io.err);
    stopTasks = tasks.stop;
    // An interrupted run is left behind while the servers stop: whatever it would still say is not said.
    const quiet = signal ? untilAborted(io, signal) : io;
    const run = async () => {
      if (action !== undefined) return runServersAction(action, invocation, started, quiet, signal);
      if (invocation.command === 'registry') return runRegistrySearch(invocation, started, quiet);
      if (invocation.command === 'install') return runInstall(invocation, started, quiet, signal);
      // Nothing runs that the person did not approve: asked on a terminal, else refused with the command that approves it.
      const unapproved = await settleLaunchApprovals(started, quiet, invocation.configPath, signal);
      const code = await runCommand(invocation, started, quiet, signal);
      return code === 0 && unapproved.length > 0 ? 1 : code;
    };
    // Ctrl+C is how following a trace ends, not a failure; a command's running tasks are cancelled first.
    const interrupted = following
      ? whenInterrupted(signal).catch(() => 0)
      : whenInterrupted(signal).catch(async (error: unknown) => {
          await tasks.cancelRunning();
          throw error;
        });
    return await Promise.race([run(), interrupted]);
  } catch (error) {
    return failureExit(error, io, signal);
  } finally {
    stopTasks();
    await core?.shutdown();
  }
}

/** The one server a command is about (call, read, prompt, tools approve, servers approve|add|remove), started alone. */
function targetedServer(invocation: CliInvocation): string | undefined {
  if (TARGETED.has(invocation.command)) return invocation.args[0];
  if (invocation.command === 'tools' && invocation.args[0] === 'approve') return invocation.args[1];
  if (serversAction(invocation) !== undefined) return invocation.args[1];
  return undefined;
}

async function runCommand(invocation: CliInvocation, core: RunningHost, io: CliIo, signal?: AbortSignal): Promise<number> {
  const { api } = core;
  const print = (value: unknown, human: () => string) => io.out(invocation.json ? safeJson(value, 2) : human());
  const statuses = await core.whenSettled();
  // A server that failed to start has a trace too: how it failed is in its messages.
  if (invocation.command === 'trace') {
    const serverId = invocation.args[0] ?? '';
    const failure = (status: ServerStatus) => {
      if (status.kind === 'disabled') return `${serverId} is disabled: it sends nothing to trace`;
      if (status.kind === 'ready' || isReported(status)) return undefined;
      const reason = describeFailure(serverId, status);
      return reason.startsWith(`${serverId}: `) ? reason : `${serverId}: ${reason}`;
    };
    return runTrace(serverId, core, io, { follow: invocation.follow, json: invocation.json, failure, ...(signal ? { signal } : {}) });
  }

  if (invocation.command === 'servers') {
    const servers = await api.listServers({});
    const sandboxes = await api.listSandboxes({});
    print(servers, () => format.formatServers(servers, Date.now(), sandboxes));
    return 0;
  }

  const failed = [...statuses].filter(([, status]) => !isUsable(status));
  for (const [id, status] of failed) {
    if (isReported(status)) continue;
    // Most reasons already start with the server's name.
    const reason = describeFailure(id, status);
    io.err(`atrium: ${reason.startsWith(`${id}: `) ? reason : `${id}: ${reason}`}`);
  }
  const scoped = invocation.server ?? targetedServer(invocation);
  if (scoped !== undefined && failed.some(([id]) => id === scoped)) return 1;
  // Off by the person's choice, which a list of all servers passes over; asked for by name, it is said.
  if (scoped !== undefined && statuses.get(scoped)?.kind === 'disabled') {
    io.err(`atrium: ${format.visible(scoped)} is disabled: to use it, atrium servers enable ${shellWord(scoped)}`);
    return 1;
  }
  const code = await answerCommand(invocation, core, io);
  // A list that leaves out a server that could not start is printed, and exits 1 as one that leaves out
  // an unapproved server does: a script must not take "No tools." for the truth.
  return code === 0 && LISTS_SERVERS.has(invocation.command) && failed.some(([, status]) => !isReported(status)) ? 1 : code;
}

async function runImport(invocation: CliInvocation, home: string, io: CliIo): Promise<number> {
  const [source = ''] = invocation.args;
  let imported: Awaited<ReturnType<typeof importServersFile>>;
  try {
    imported = await importServersFile(home, source, { ...(invocation.configPath !== undefined ? { target: invocation.configPath } : {}), environment: io.env });
  } catch (error) {
    // A full disk, a file someone else holds locked, one damaged meanwhile: said in a sentence, nothing written.
    if (!isExpectedFailure(error)) throw error;
    io.err(`atrium: ${expectedFailureText(error)}`);
    return 1;
  }
  const { target, report, blocked } = imported;
  for (const problem of report.problems) io.err(`atrium: ${problem.message}`);
  // The file itself could not be read as servers: nothing was looked at, so there is nothing to count.
  if (report.problems.some((problem) => problem.serverId === null)) return 1;
  // Added, but the organisation's policy keeps it from starting: said now, with the rule.
  for (const { id, block } of blocked) io.err(`atrium: ${format.visible(id)} will not start: ${format.visible(describeBlock(block))}`);
  if (invocation.json) io.out(safeJson({ target, ...report, blocked }, 2));
  else {
    for (const { id, from } of report.added) io.out(id === from ? `added ${id}` : `added ${from} as ${id} (the name was taken)`);
    // Imported servers are not trusted, and each is asked about (or approved with `atrium servers approve`) before it first runs.
    if (report.added.length > 0) io.out('Each added server is not trusted and asks for your approval before it first runs.');
    for (const id of report.unchanged) io.out(`${id} is already configured`);
    const leftOut = report.problems.length > 0 ? `; ${report.problems.length} left out (said above)` : '';
    io.out(`${report.added.length} server(s) added to ${target}${leftOut}`);
  }
  // An entry left out is not a success, as a list that leaves out a server is not: a script sees it.
  return report.problems.length > 0 ? 1 : 0;
}

/** How a command that failed ends: interrupted (Ctrl+C), a failure the person can fix in a line, bad usage; else a fault in Atrium. */
function failureExit(error: unknown, io: CliIo, signal: AbortSignal | undefined): number {
  // Whatever broke once the person pressed Ctrl+C broke because of it (a question taken back, a server stopped).
  if (signal?.aborted) return interruptedExit(signal, io.err);
  if (isExpectedFailure(error)) {
    io.err(`atrium: ${expectedFailureText(error)}`);
    return 1;
  }
  if (error instanceof UsageError) {
    io.err(`atrium: ${error.message}`);
    return 2;
  }
  throw error;
}

/** The same output, silent once `signal` aborted. */
function untilAborted(io: CliIo, signal: AbortSignal): CliIo {
  return {
    ...io,
    out: (text) => (signal.aborted ? undefined : io.out(text)),
    err: (text) => (signal.aborted ? undefined : io.err(text)),
    write: (text) => (signal.aborted ? undefined : io.write(text)),
  };
}

/** Failures a person can meet and fix: printed as one line, never as a stack trace. */
function isExpectedFailure(error: unknown): error is Error {
  return error instanceof CliFailure || isPersonFacing(error);
}

function expectedFailureText(error: Error): string {
  return commandLineText(error);
}

function isUsable(status: ServerStatus): boolean {
  return status.kind === 'ready' || status.kind === 'disabled';
}

/** A server waiting for approval was reported with the command that approves it; it is not reported again as a failure. */
function isReported(status: ServerStatus): boolean {
  return status.kind === 'needs-approval';
}

function describeFailure(id: string, status: ServerStatus): string {
  if (status.kind === 'error') return status.message;
  if (status.kind === 'blocked') return `not started: ${describeBlock(status.block)}`;
  if (status.kind === 'needs-sign-in') return `${status.message} — atrium sign-in ${format.visible(id)}`;
  if (status.kind === 'restarting') return status.lastError;
  return `not ready (${status.kind})`;
}
