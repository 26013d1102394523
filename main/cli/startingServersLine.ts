// A command that needs its servers waits until none is still starting, and a server can take a while (an
// npx package fetched on its first use, a slow program). Past two seconds of that wait the command says,
// once, which servers it waits for, so a person is not left before a silent terminal (on standard error,
// and only when that is a terminal: a script reading it gets nothing more).

import type { RunningHost } from '../app/hostCoreOptions.ts';
import { listInWords } from '../../shared/listInWords.ts';

/** How long a command waits for its servers before it says so. */
const QUIET_WAIT_MS = 2_000;

/** `core`, whose `whenSettled` says, past `quietMs`, which servers it still waits for to start. */
export function sayingWhomItWaitsFor<T extends RunningHost>(core: T, say: (line: string) => void, quietMs: number = QUIET_WAIT_MS): T {
  let told = false;
  const whenSettled = async () => {
    let settled = false;
    const timer = setTimeout(() => {
      void core.api.listServers({}).then((servers) => {
        const starting = servers.filter((server) => server.status.kind === 'starting').map((server) => server.id);
        if (settled || told || starting.length === 0) return;
        told = true;
        say(`atrium: waiting for ${listInWords(starting)} to start…`);
      });
    }, quietMs);
    try {
      return await core.whenSettled();
    } finally {
      settled = true;
      clearTimeout(timer);
    }
  };
  return { ...core, whenSettled };
}
