// Follows one file as other programs change it: the person's editor (which may write in place, or write
// a new file and rename it over the old one), another Atrium. The folder is watched rather than the
// file, so a file replaced, or deleted and made again, is still followed; an editor's save comes as a
// burst of events, so `changed` is called once they have stopped for `settleMs`. Whether the content
// really changed is the caller's to tell (a digest of what it last read).

import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface FileWatch {
  close(): void;
}

export function watchFile(path: string, changed: () => void, options: { settleMs?: number } = {}): FileWatch {
  const name = basename(path);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const close = () => {
    clearTimeout(timer);
    watcher?.close();
    watcher = undefined;
  };
  try {
    // Never what keeps a process alive: a one-shot command ends when its work does.
    watcher = watch(dirname(path), { persistent: false }, (_event, filename) => {
      // Some platforms do not say which file changed; then it may be this one.
      if (filename !== null && filename !== name) return;
      clearTimeout(timer);
      timer = setTimeout(changed, options.settleMs ?? 100);
      timer.unref();
    });
    // The folder went away: there is nothing left to follow.
    watcher.on('error', close);
  } catch {
    // A folder that cannot be watched: a change made elsewhere is still taken up at the next write.
  }
  return { close };
}
