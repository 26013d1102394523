// Where a stdio server runs when its definition names no working folder (`cwd`): `run/` in Atrium's data
// folder, a folder of Atrium's own that is no package and holds none. Atrium's own working folder would
// make what a server runs depend on where Atrium was started: `npx` run in a checkout or a project finds
// that folder's copy of a package instead of the one it names, and a relative path means another file.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The folder stdio servers of the data folder `home` run in when their definition names none. */
export function serversWorkingFolder(home: string): string {
  return join(home, 'run');
}

/** Makes the folder when it is not there (a new data folder, or one someone emptied), private to the person. */
export async function prepareWorkingFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
}
