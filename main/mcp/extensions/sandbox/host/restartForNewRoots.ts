// A sandbox is made for the roots of the moment its server starts: when the roots change, every server
// running in a sandbox made for others starts again in one made for the new roots (its tools are listed
// anew; a call under way fails as a restart makes it fail). A turn begun meanwhile waits for them, a
// bounded while, so that it offers their tools instead of finding them gone.

import type { McpHub } from '../../../McpHub.ts';
import type { ServerSandboxes } from '../serverSandboxes.ts';

/** Longer than a server takes to start again on a busy machine; a turn never waits longer. */
const TURN_WAIT_MS = 10_000;

export class RootsRestarts {
  readonly #sandboxes: ServerSandboxes;
  readonly #hub: McpHub;
  /** The restarts under way, in order: each roots change after the one before. */
  #pending: Promise<void> = Promise.resolve();

  constructor(sandboxes: ServerSandboxes, hub: McpHub) {
    this.#sandboxes = sandboxes;
    this.#hub = hub;
  }

  /** Starts again, in a sandbox for the roots of now, every server running in one made for others; resolves once they settled. */
  restart(): Promise<void> {
    const run = this.#pending.then(async () => {
      const stale = this.#sandboxes.madeForOtherRoots().filter((serverId) => this.#hub.has(serverId));
      await Promise.all(
        stale.map(async (serverId) => {
          const connection = this.#hub.get(serverId);
          await connection.restart();
          await connection.whenSettled();
        }),
      );
    });
    this.#pending = run.catch(() => undefined);
    return run;
  }

  /** Resolves once the servers starting again for new roots have settled, or after TURN_WAIT_MS. */
  async settled(limitMs: number = TURN_WAIT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
      timer.unref();
    });
    await Promise.race([this.#pending, limit]);
    clearTimeout(timer);
  }
}
