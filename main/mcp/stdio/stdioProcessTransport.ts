// The SDK Transport for a stdio MCP server: spawns it in its own process group, reads its stdout with the
// linear JsonLineReader, turns stderr into log lines, and shuts it down in the spec's order so nothing it
// started outlives it. The process reaper (processReaper.ts) knows every server before it runs, so the
// servers also die with the host when the host itself is killed.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import type { WireText } from '../trace/tracingTransport.ts';
import { commandProblem, launchError, ServerLaunchError } from './launchFailure.ts';
import { JsonLineReader } from './jsonLineReader.ts';
import { tooLargeAnswer } from '../oversizedMessage.ts';
import { serverProcesses } from './processReaper.ts';
import { spawnOnWindows } from './windowsLaunch.ts';

export type StdioServerLaunch = {
  command: string;
  args: readonly string[];
  /** The complete environment of the child (see buildServerEnvironment); nothing is inherited implicitly. */
  env: Readonly<Record<string, string>>;
  cwd?: string;
  maxMessageBytes?: number;
  /** How long each shutdown step (stdin closed, then SIGTERM) waits for the server to exit. */
  closeGraceMs?: number;
};

export type ProcessExitInfo = { code: number | null; signal: string | null };

export type StdioProcessHooks = {
  onStderrLine(line: string): void;
  onNoise(line: string): void;
  onExit(info: ProcessExitInfo): void;
};

const DEFAULT_CLOSE_GRACE_MS = 1_000;
const MAX_STDERR_LINE_BYTES = 8 * 1024;
// After the server exits, how long to wait for its pipes to drain before reporting the close anyway: a
// process outside its group (a daemon it set loose) may hold stdout open forever.
const PIPE_DRAIN_AFTER_EXIT_MS = 500;

/** What send() returns while the pipe takes more: one settled promise for every message, not one each. */
const SENT = Promise.resolve();

// Every child still running, so the host's exit can kill their groups even when nobody called close().
const liveChildren = new Set<ChildProcess>();
let exitHandlerInstalled = false;

export class StdioProcessTransport implements Transport {
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo & WireText) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;

  // The SDK's version negotiation recognises a stdio transport by these two properties being present.
  pid: number | undefined = undefined;
  stderr: Readable | null = null;

  readonly #launch: StdioServerLaunch;
  readonly #hooks: StdioProcessHooks;
  readonly #reader: JsonLineReader;
  #child: ChildProcess | undefined;
  #exited = false;
  #finished = false;
  #closing: Promise<void> | undefined;
  #drain: Promise<void> | undefined;
  /** The lines sent in this tick, written together once it ends. */
  #outgoing: string[] = [];
  /** The spawn of a process started ahead of its client (startAhead). */
  #startedAhead: Promise<void> | undefined;
  /** What the client is to hear once it starts, while the process runs ahead of it; undefined otherwise. */
  #held: (() => void)[] | undefined;
  readonly #whenFinished: Promise<void>;
  #markFinished: () => void = () => {};

  constructor(launch: StdioServerLaunch, hooks: StdioProcessHooks) {
    this.#launch = launch;
    this.#hooks = hooks;
    this.#reader = new JsonLineReader(
      {
        onMessage: (message, wireText) => {
          // The hot path: no closure unless the client is yet to start.
          if (this.#held) this.#held.push(() => this.onmessage?.(message, { wireText }));
          else this.onmessage?.(message, { wireText });
        },
        onNoise: (line) => hooks.onNoise(line),
        onOversize: (error) =>
          this.#toClient(() => {
            this.onerror?.(error);
            // The request the discarded message answered fails now, with the reason, instead of timing out.
            if (error.messageId !== undefined) {
              this.onmessage?.(tooLargeAnswer(error.messageId, error.limitBytes));
            }
          }),
      },
      { maxMessageBytes: launch.maxMessageBytes },
    );
    this.#whenFinished = new Promise((resolve) => {
      this.#markFinished = resolve;
    });
  }

  /** SIGKILLs the process group of every server still running; for the host's 'exit' handler, so it is synchronous. */
  static killAllSync(): void {
    for (const child of liveChildren) killTree(child, 'SIGKILL', { sync: true });
    liveChildren.clear();
  }

  /**
   * Starts the process now, before the client that will speak to it exists (the SDK's code is still
   * loading, sessionOpener.ts): the server starts while it loads. What the process says meanwhile (its
   * messages, its end) is held, and reaches the client once the client calls start().
   */
  startAhead(): void {
    if (this.#startedAhead) throw new Error('StdioProcessTransport can only be started once');
    this.#held = [];
    this.#startedAhead = this.#spawn();
    // A failed spawn is reported by the client's start(); until then it is not an unhandled rejection.
    this.#startedAhead.catch(() => undefined);
  }

  start(): Promise<void> {
    const ahead = this.#startedAhead;
    if (ahead === undefined || this.#held === undefined) return this.#spawn();
    // The client starts a process started ahead: it waits for the same spawn, then hears what was held.
    const release = (): void => {
      const held = this.#held ?? [];
      this.#held = undefined;
      for (const deliver of held) deliver();
    };
    return ahead.then(release, (error: unknown) => {
      release();
      throw error;
    });
  }

  /** Calls the client now, or once it starts when the process was started ahead of it. */
  #toClient(deliver: () => void): void {
    if (this.#held) this.#held.push(deliver);
    else deliver();
  }

  #spawn(): Promise<void> {
    if (this.#child || this.#closing) return Promise.reject(new Error('StdioProcessTransport can only be started once'));
    installExitHandler();
    const { command, args, env, cwd } = this.#launch;
    const reaper = serverProcesses.launcher();
    let child: ChildProcess;
    try {
      const options = {
        env,
        cwd,
        shell: false,
        windowsHide: true,
        // Its own process group lets close() signal everything the server started, not just the server.
        // Windows has no process groups; taskkill /T walks the tree there instead.
        detached: process.platform !== 'win32',
      };
      if (reaper) {
        // The launcher tells the reaper its pid (the server's, once it execs) before the server runs, so
        // no moment exists at which the host could die leaving a server the reaper does not know.
        const problem = commandProblem(command, env, cwd);
        if (problem) return Promise.reject(launchError(Object.assign(new Error(problem), { code: problem }), this.#launch));
        const launcher = reaper.wrap(command, args, env);
        child = spawn(launcher.file, launcher.args, { ...options, env: launcher.env, stdio: ['pipe', 'pipe', 'pipe', reaper.channel] });
      } else if (process.platform === 'win32') {
        // npx, npm and other .cmd shims need cmd.exe, with everything escaped for it (windowsLaunch.ts).
        child = spawnOnWindows(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
      } else {
        child = spawn(command, [...args], { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
      }
    } catch (error) {
      return Promise.reject(new ServerLaunchError('spawn-failed', `could not start "${command}": ${describe(error)}`));
    }
    this.#child = child;
    this.stderr = child.stderr;
    // Also kept on the host's side (and the only announcement when there is no launcher), so a reaper
    // that had to be started again is told of every running server.
    if (child.pid !== undefined) serverProcesses.started(child.pid, reaper !== undefined);
    return new Promise((resolve, reject) => {
      child.once('spawn', () => {
        this.pid = child.pid;
        liveChildren.add(child);
        this.#wire(child);
        resolve();
      });
      child.once('error', (error) => {
        if (this.pid !== undefined) return;
        this.#exited = true;
        this.#finish();
        reject(launchError(error, this.#launch));
      });
    });
  }

  /** Writes `wireText` when the trace made it already (TracingTransport), else the message's JSON. */
  send(message: JSONRPCMessage, options?: TransportSendOptions & WireText): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exited || this.#closing || !stdin.writable) {
      const why = this.#closing && !this.#exited ? 'the connection is closing' : 'its process is not running';
      return Promise.reject(new Error(`cannot send to MCP server "${this.#launch.command}": ${why}`));
    }
    if (this.#outgoing.length === 0) process.nextTick(this.#writeOutgoing);
    this.#outgoing.push(`${options?.wireText ?? JSON.stringify(message)}\n`);
    if (!stdin.writableNeedDrain) return SENT;
    // One shared waiter, so a burst of sends does not pile a listener per message onto the stream.
    this.#drain ??= waitForDrain(stdin).finally(() => {
      this.#drain = undefined;
    });
    return this.#drain;
  }

  // Messages sent in the same tick (replies to a batch of responses, a burst of pipelined calls) go out as
  // one string in one write: cheaper than a write each, or than cork and writev, which still keep a
  // buffered entry per message. Writing on nextTick adds no measurable latency to a lone message.
  readonly #writeOutgoing = (): void => {
    const lines = this.#outgoing;
    if (lines.length === 0) return;
    this.#outgoing = [];
    const stdin = this.#child?.stdin;
    // A server that exited in between fails its requests through the close; the lines have no reader.
    if (!stdin?.writable) return;
    stdin.write(lines.length === 1 ? (lines[0] as string) : lines.join(''));
  };

  /** Closes stdin, then SIGTERMs and finally SIGKILLs the process group; resolves once the server has exited. */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    const child = this.#child;
    if (!child || this.pid === undefined) {
      this.#finish();
      return;
    }
    const grace = this.#launch.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    // What the server started outside its group (a setsid daemon) is known to the reaper before the
    // server exits and the daemon loses its parent; the reaper kills it once the server is gone.
    if (!this.#exited) await serverProcesses.recordDescendants();
    this.#writeOutgoing();
    child.stdin?.end();
    if (await this.#finishesWithin(grace)) return;
    killTree(child, 'SIGTERM');
    if (await this.#finishesWithin(grace)) return;
    killTree(child, 'SIGKILL');
    await this.#whenFinished;
  }

  #finishesWithin(ms: number): Promise<boolean> {
    if (this.#exited) return this.#whenFinished.then(() => true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.#whenFinished.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  #wire(child: ChildProcess): void {
    child.stdout?.on('data', (chunk: Buffer) => this.#reader.push(chunk));
    child.stderr?.on('data', splitLines(MAX_STDERR_LINE_BYTES, (line) => this.#hooks.onStderrLine(line)));
    // A server that dies mid-write makes stdin fail with EPIPE; the exit is what gets reported, not the pipe.
    child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') this.#toClient(() => this.onerror?.(error));
    });
    child.stdout?.on('error', (error) => this.#toClient(() => this.onerror?.(error)));
    child.on('error', (error) => this.#toClient(() => this.onerror?.(error)));
    child.once('exit', (code, signal) => {
      this.#exited = true;
      liveChildren.delete(child);
      // Whatever the server left running in its group would be orphaned now; nothing can stop it in order.
      killTree(child, 'SIGKILL');
      if (child.pid !== undefined) serverProcesses.exited(child.pid);
      const info: ProcessExitInfo = { code, signal };
      const drained = setTimeout(() => this.#finish(info), PIPE_DRAIN_AFTER_EXIT_MS);
      child.once('close', () => {
        clearTimeout(drained);
        this.#finish(info);
      });
    });
  }

  #finish(info?: ProcessExitInfo): void {
    if (this.#finished) return;
    this.#finished = true;
    const child = this.#child;
    if (child) {
      this.#reader.flush();
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }
    if (info) this.#hooks.onExit(info);
    this.#markFinished();
    this.#toClient(() => this.onclose?.());
  }
}

function installExitHandler(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  // With a reaper, the host's exit is left to it, as a crash is: it freezes the servers, finds every
  // process they started (a setsid daemon included) while they are still its parents, then kills them
  // all. Killing the groups here first would orphan such a daemon before the reaper could find it.
  process.once('exit', () => {
    if (!serverProcesses.reaperRunning()) StdioProcessTransport.killAllSync();
  });
}

function killTree(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL', options: { sync?: boolean } = {}): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    if (signal === 'SIGTERM') {
      child.kill(signal);
      return;
    }
    const args = ['/pid', String(pid), '/T', '/F'];
    if (options.sync) spawnSync('taskkill', args, { windowsHide: true, stdio: 'ignore' });
    else spawn('taskkill', args, { windowsHide: true, stdio: 'ignore' }).on('error', () => {});
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

function waitForDrain(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = (): void => {
      stream.off('close', onClose);
      resolve();
    };
    const onClose = (): void => {
      stream.off('drain', onDrain);
      reject(new Error('the MCP server exited before reading the message'));
    };
    stream.once('drain', onDrain);
    stream.once('close', onClose);
  });
}

/** Splits a byte stream into lines, cutting each at maxLineBytes so a runaway writer cannot grow memory. */
function splitLines(maxLineBytes: number, onLine: (line: string) => void): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let droppedBytes = 0;
  const keep = (piece: Buffer): void => {
    const room = maxLineBytes - pendingBytes;
    if (piece.length > room) {
      droppedBytes += piece.length - room;
      piece = piece.subarray(0, room);
    }
    if (piece.length === 0) return;
    pending.push(piece);
    pendingBytes += piece.length;
  };
  return (chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      keep(chunk.subarray(start, newline));
      let line = Buffer.concat(pending, pendingBytes).toString('utf8');
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (droppedBytes > 0) line += ` … [truncated ${droppedBytes} bytes]`;
      pending = [];
      pendingBytes = 0;
      droppedBytes = 0;
      onLine(line);
      start = newline + 1;
    }
    keep(chunk.subarray(start));
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
