// Makes stdio servers die with the host however it ends, SIGKILL included: one small reaper process per
// host (reaperScript.ts), holding a pipe to the host. Each server announces itself on that pipe before
// it runs, and the host says when it exits; the reaper records the servers and every process they start
// (setsid ones too) and kills them all when the pipe closes. At start it kills what a host that died
// together with its reaper left. Each server's environment carries this run's mark (SERVER_RUN_VARIABLE),
// which lets the reaper find, on Linux, a daemon the server orphaned before a scan saw it. Windows has no
// reaper: taskkill /T ends a server's tree there, and only when the host stops it.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ExitBatch } from './exitBatch.ts';
import { REAPER_SCRIPT } from './reaperScript.ts';

const SCAN_INTERVAL_SECONDS = 1;
/** Whether the reaper finds a run's processes by the mark in their initial environment (reaperScript.ts's `marked`). */
const MARKS_READABLE = process.platform === 'linux' && existsSync('/proc/self/environ');
/** How long a server's shutdown waits for the reaper to record what the server started. */
const SCAN_WAIT_MS = 5_000;
/** How long the reaper's pass for an exited server waits for others exiting with it (exitBatch.ts). */
const EXIT_BATCH_MS = 100;
/** A reaper that keeps dying is not started again forever. */
const MAX_STARTS = 5;
/**
 * Set on every server's environment to "RUN:SERVERPID" (the launcher adds its pid): what the server
 * starts inherits it, so the reaper can tell this run's processes from anyone else's whatever their parent.
 */
const SERVER_RUN_VARIABLE = 'ATRIUM_SERVER_RUN';
// Run by /bin/sh with the server's command as $0: announce on fd 3 (the reaper's pipe), close it so the
// server never holds it, complete the run's mark with its pid, then become the server (same pid; PATH
// looked up in the server's environment).
const ANNOUNCE_AND_EXEC = `echo "+ $$" >&3; exec 3>&-; export ${SERVER_RUN_VARIABLE}="$${SERVER_RUN_VARIABLE}:$$"; exec "$0" "$@"`;

/**
 * How a server is launched so that the reaper knows it before it runs (a host killed between spawning a
 * server and telling the reaper could otherwise leave it unknown) and can find what it sets loose.
 */
export type ReaperLauncher = {
  /** The reaper's command pipe: the launcher's file descriptor 3. */
  channel: Writable;
  /** The launcher running `command`; the mark is set last, so a server's configuration cannot change it. */
  wrap(command: string, args: readonly string[], env: Readonly<Record<string, string>>): { file: string; args: string[]; env: Record<string, string> };
};

class ProcessReaper {
  readonly #folder: string;
  /** Random, so no process outside this run can carry its mark by chance; kept by every reaper it starts. */
  readonly #run = randomBytes(16).toString('hex');
  readonly #servers = new Set<number>();
  readonly #scans = new Map<number, () => void>();
  /** Servers that exit together are reaped in one pass (exitBatch.ts). */
  readonly #exits = new ExitBatch((line) => this.#send(line), EXIT_BATCH_MS);
  #child: ChildProcess | undefined;
  #starts = 0;
  #nextScan = 0;
  #scanning: Promise<void> | undefined;
  #queuedScan: Promise<void> | undefined;

  constructor(folder: string) {
    this.#folder = folder;
    this.#start();
  }

  /** `announced`: its launcher already told the reaper (each announcement costs the reaper work). */
  serverStarted(pid: number, announced: boolean): void {
    this.#servers.add(pid);
    if (!announced) this.#send(`+ ${pid}`);
  }

  serverExited(pid: number): void {
    if (!this.#servers.delete(pid)) return;
    this.#exits.add(pid);
  }

  launcher(): ReaperLauncher | undefined {
    const channel = this.#channel();
    if (!channel) return undefined;
    return {
      channel,
      wrap: (command, args, env) => ({ file: '/bin/sh', args: ['-c', ANNOUNCE_AND_EXEC, command, ...args], env: { ...env, [SERVER_RUN_VARIABLE]: this.#run } }),
    };
  }

  running(): boolean {
    return this.#channel() !== undefined;
  }

  #channel(): Writable | undefined {
    const stdin = this.#child?.stdin;
    return stdin?.writable ? stdin : undefined;
  }

  /**
   * Resolves once the reaper has recorded every process the servers started (or after a bounded wait).
   * Where the reaper reads the run's mark from each process's initial environment (Linux), what a server
   * started is found by its mark when the server's exit is reaped, its tree walked from there too, so
   * nothing is waited for: a scan of the whole process table, which takes a busy machine up to a second,
   * would only be done twice.
   */
  recordDescendants(): Promise<void> {
    if (!this.#child || MARKS_READABLE) return Promise.resolve();
    // Servers stopping together (a quit) share scans: a scan already under way may have read the
    // process table too early for a new request, so those wait together for the one after it.
    if (!this.#scanning) {
      this.#scanning = this.#scan().finally(() => {
        this.#scanning = undefined;
      });
      return this.#scanning;
    }
    this.#queuedScan ??= this.#scanning.then(() => {
      this.#queuedScan = undefined;
      return this.recordDescendants();
    });
    return this.#queuedScan;
  }

  #scan(): Promise<void> {
    const id = ++this.#nextScan;
    return new Promise((resolve) => {
      // Not unref'd: a server's shutdown waiting for this answer must finish, even with nothing else to do.
      const timer = setTimeout(() => this.#settleScan(id), SCAN_WAIT_MS);
      this.#scans.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      this.#send(`scan ${id}`);
    });
  }

  #start(): void {
    if (this.#starts >= MAX_STARTS) return;
    this.#starts += 1;
    // The script travels in the environment, so the process table shows a short command line.
    const child = spawn('/bin/sh', ['-c', 'eval "$ATRIUM_REAPER_SCRIPT"', 'atrium-reaper', this.#folder, String(process.pid), String(SCAN_INTERVAL_SECONDS), this.#run], {
      env: { ATRIUM_REAPER_SCRIPT: REAPER_SCRIPT, PATH: '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C' },
      stdio: ['pipe', 'pipe', 'ignore'],
      // Its own session, so a signal sent to the host's process group (Ctrl+C in a terminal) does not end it before the host.
      detached: true,
      windowsHide: true,
    });
    this.#child = child;
    // The reaper must never keep the host alive: only the host's end closing its pipe ends it.
    child.unref();
    (child.stdin as Socket | null)?.unref();
    (child.stdout as Socket | null)?.unref();
    child.stdin?.on('error', () => {});
    child.on('error', () => {
      this.#child = undefined;
    });
    child.once('exit', () => {
      if (this.#child !== child) return;
      this.#child = undefined;
      for (const id of [...this.#scans.keys()]) this.#settleScan(id);
      // A reaper killed while the host runs is replaced; the new one takes over its record.
      this.#start();
      for (const pid of this.#servers) this.#send(`+ ${pid}`);
    });
    if (child.stdout) {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const scanned = /^scanned (\d+)$/.exec(line);
        if (scanned) this.#settleScan(Number(scanned[1]));
      });
    }
  }

  #settleScan(id: number): void {
    const settle = this.#scans.get(id);
    this.#scans.delete(id);
    settle?.();
  }

  #send(line: string): void {
    const stdin = this.#child?.stdin;
    if (stdin?.writable) stdin.write(`${line}\n`);
  }
}

let reaper: ProcessReaper | undefined;

/**
 * Starts this process's reaper, which first kills what crashed Atrium processes of this user left
 * running; servers start it themselves otherwise. One per process.
 */
export function startProcessReaper(): void {
  currentReaper();
}

function currentReaper(): ProcessReaper | undefined {
  if (process.platform === 'win32') return undefined;
  if (!reaper) {
    const folder = recordFolder();
    if (folder) reaper = new ProcessReaper(folder);
  }
  return reaper;
}

/**
 * Where reapers keep their records: the user's runtime folder (emptied at boot, like the processes it
 * lists), shared by every Atrium process of the user whatever its data folder, so any start ends what a
 * crash left. It must be the user's own and private, or a planted record could direct the killing.
 */
export function recordFolder(): string | undefined {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const folder = runtime ? join(runtime, 'atrium', 'running') : join(tmpdir(), `atrium-${process.getuid?.() ?? 'user'}`, 'running');
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    for (const level of [dirname(folder), folder]) {
      const info = lstatSync(level);
      if (!info.isDirectory() || info.uid !== process.getuid?.() || (info.mode & 0o077) !== 0) return undefined;
    }
    return folder;
  } catch {
    return undefined;
  }
}

export const serverProcesses = {
  started: (pid: number, announced: boolean): void => currentReaper()?.serverStarted(pid, announced),
  exited: (pid: number): void => currentReaper()?.serverExited(pid),
  recordDescendants: (): Promise<void> => currentReaper()?.recordDescendants() ?? Promise.resolve(),
  launcher: (): ReaperLauncher | undefined => currentReaper()?.launcher(),
  /** Whether a reaper is running now (none is started to answer), to end the servers when this process exits. */
  reaperRunning: (): boolean => reaper?.running() ?? false,
};
