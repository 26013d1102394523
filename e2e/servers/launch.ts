// How tests start the fixture servers in this folder as real child processes.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export type StdioFixture =
  | 'crashServer'
  | 'hangServer'
  | 'noisyStdoutServer'
  | 'floodServer'
  | 'bigResultServer'
  | 'listChangedServer'
  | 'slowStartServer'
  | 'echoServer'
  | 'logLevelsServer'
  | 'tickingServer'
  | 'structuredWeatherServer'
  | 'familyServer'
  | 'daemonServer'
  | 'hostileTextServer'
  | 'toolChangeServer'
  | 'appViewServer'
  | 'viewAttackServer'
  | 'lyingResultServer'
  | 'squattingServer'
  | 'changeWhileListingServer'
  | 'skillServer'
  | 'snoopingServer';

export type HttpFixture = 'taskServer' | 'endlessAnswerServer' | 'invalidHeaderToolServer' | 'listChangedServer' | 'sessionExpiryServer' | 'legacySseServer' | 'oauthServer';

export function fixturePath(name: StdioFixture | HttpFixture): string {
  return fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
}

/** The command and arguments that run a stdio fixture, in the shape a stdio server config takes. */
export function fixtureCommand(name: StdioFixture, args: string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: [fixturePath(name), ...args] };
}

export interface HttpFixtureHandle {
  /** The URL the fixture printed in its `listening <url>` line. */
  url: string;
  /** Everything the fixture wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the first stderr line (already written or still to come) that matches. */
  waitForStderr(pattern: RegExp): Promise<string>;
  /** Sends SIGTERM and resolves once the process has exited; safe to call twice. */
  stop(): Promise<void>;
  /** Kills the process at once, for a test process about to exit without its after hooks. */
  killNow(): void;
}

/**
 * Spawns an HTTP fixture on a free port (`--port 0` unless args name one) and resolves once it has
 * printed `listening <url>`; rejects if the process exits first.
 */
export async function startHttpFixture(name: HttpFixture, args: string[] = []): Promise<HttpFixtureHandle> {
  const portArgs = args.includes('--port') ? [] : ['--port', '0'];
  const extra = name === 'listChangedServer' && !args.includes('--http') ? ['--http'] : [];
  const child = spawn(process.execPath, [fixturePath(name), ...extra, ...portArgs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Resolves on exit, and also when the spawn itself failed (then there is no exit event).
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
    child.once('exit', (code, signal) => resolve([code, signal]));
    child.once('error', () => resolve([null, null]));
  });

  let stderrText = '';
  const stderrLines: string[] = [];
  const lineWaiters = new Set<(line: string) => void>();
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderrText += chunk;
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderrLines.push(line);
    for (const waiter of lineWaiters) waiter(line);
  });

  const stdoutLines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    stdoutLines.once('line', (line) => {
      const match = /^listening (\S+)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
      else reject(new Error(`${name} printed "${line}" instead of "listening <url>"`));
    });
    child.once('error', reject);
    void exited.then(([code, signal]) =>
      reject(new Error(`${name} exited (code ${String(code)}, signal ${String(signal)}) before listening:\n${stderrText}`)),
    );
  });

  return {
    url,
    stderr: () => stderrText,
    waitForStderr(pattern) {
      const seen = stderrLines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => {
        const waiter = (line: string) => {
          if (!pattern.test(line)) return;
          lineWaiters.delete(waiter);
          resolve(line);
        };
        lineWaiters.add(waiter);
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    killNow() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
