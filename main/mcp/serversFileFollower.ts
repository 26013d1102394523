// Keeps the running servers in step with the servers file as others change it — the person's editor,
// `atrium import` beside the window: a server added there is added here (and, like every new
// definition, waits for the person's approval before it runs: the launch gate sees to that), one
// removed is stopped, one changed starts again with its new definition (a changed launch definition
// waits for approval again), and a change to which tools are off or always loaded lists the tools
// again. The window hears of it through the hub's events (and the registry's own announcement of its
// configuration problems).

import { isDeepStrictEqual } from 'node:util';
import { watchFile } from '../store/fileWatch.ts';
import type { ServerDefinition } from './config/serverConfig.ts';
import type { HubEmit, McpHub } from './McpHub.ts';
import type { ServerRegistry, ServersChange } from './ServerRegistry.ts';

/**
 * Follows the registry's file (Atrium's own; a --config file is not followed); returns the way to stop,
 * which settles once a read under way has finished (a read writes the last good copy, and nothing may be
 * written in the data folder once the host has stopped).
 */
export function followServersFile(registry: ServerRegistry, hub: McpHub, emit: HubEmit): () => Promise<void> {
  if (!registry.writable) return () => Promise.resolve();
  const apply = (change: ServersChange) => {
    // Asked for now, in this order: the hub runs each server's changes one after another.
    const done = [
      ...change.removed.map((id) => hub.remove(id)),
      ...change.added.map((definition) => hub.replace(definition)),
      ...change.changed.map(({ before, after }) => {
        if (!onlyToolChoices(before, after)) return hub.replace(after);
        emit('listChanged', { serverId: after.id, list: 'tools' });
        return Promise.resolve();
      }),
    ];
    // A server that cannot be started says so on its own card; the others are not held up by it.
    void Promise.allSettled(done);
  };
  const stopListening = registry.onChange(apply);
  let gone: NodeJS.Timeout | undefined;
  // The reads under way (a stop waits for them); each leaves the set once done.
  const reading = new Set<Promise<void>>();
  const track = (read: Promise<void>) => {
    reading.add(read);
    void read.finally(() => reading.delete(read));
  };
  const refresh = () => {
    clearTimeout(gone);
    track(
      registry.refresh().then(
        (found) => {
          // Still gone a moment later (not an editor's save between its delete and its write): no servers.
          if (found === 'missing') gone = setTimeout(() => track(registry.refresh({ ifMissing: 'empty' }).then(() => undefined, () => undefined)), MISSING_SETTLE_MS).unref();
        },
        // A read that fails is tried again at the file's next change.
        () => undefined,
      ),
    );
  };
  const watch = watchFile(registry.path, refresh);
  // What changed between the first read and the watch starting is not missed.
  refresh();
  return async () => {
    clearTimeout(gone);
    watch.close();
    stopListening();
    await Promise.all(reading);
  };
}

/** How long a servers file that went away must stay away before its servers stop. */
const MISSING_SETTLE_MS = 1_000;

/** The change is only which tools are off or always loaded: the server keeps running, its tools are listed again. */
function onlyToolChoices(before: ServerDefinition, after: ServerDefinition): boolean {
  const { disabledTools: _off, alwaysLoadedTools: _loaded, ...rest } = before;
  const { disabledTools: _offNow, alwaysLoadedTools: _loadedNow, ...restNow } = after;
  return isDeepStrictEqual(JSON.parse(JSON.stringify(rest)), JSON.parse(JSON.stringify(restNow)));
}
