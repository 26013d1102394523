// A real `serveWeb` host for the browser benchmarks, on a data folder the bench prepared, with the given
// servers; ready once it prints its address.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { approveServers } from '../e2e/fixtures/approvedServers.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

export async function startWebHost(home: string, mcpServers: Record<string, unknown> = {}): Promise<{ url: string; stop(): void }> {
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers }));
  await approveServers(home);
  const child = spawn(process.execPath, ['main/web/serveWeb.ts', '--port', '0'], { cwd: root, env: { ATRIUM_HOME: home, HOME: home, PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^Atrium is running at (\S+)$/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the host exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}
