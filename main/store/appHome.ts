// Where Atrium keeps its data: ATRIUM_HOME when set (tests and portable installs), else the
// platform's per-user application-data folder.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function resolveAtriumHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.ATRIUM_HOME) return resolve(env.ATRIUM_HOME);
  const home = env.HOME || homedir();
  switch (platform) {
    case 'win32':
      return join(env.APPDATA || join(env.USERPROFILE || home, 'AppData', 'Roaming'), 'Atrium');
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Atrium');
    default:
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Atrium');
  }
}
