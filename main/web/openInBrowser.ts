// `npm run web --open`: the address opened in the person's default browser, by the platform's own
// opener. Detached and not waited for: a browser that keeps running must not hold Atrium up.
import { spawn } from 'node:child_process';

function openerFor(platform: NodeJS.Platform): { command: string; args: (url: string) => string[] } {
  if (platform === 'darwin') return { command: 'open', args: (url) => [url] };
  // `start` is a cmd.exe built-in; its first quoted argument is a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: (url) => ['/c', 'start', '""', url.replaceAll('&', '^&')] };
  return { command: 'xdg-open', args: (url) => [url] };
}

/** Resolves true once the opener started, false when there is none (a server without a desktop). */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  const { command, args } = openerFor(platform);
  return new Promise((resolve) => {
    const child = spawn(command, args(url), { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
