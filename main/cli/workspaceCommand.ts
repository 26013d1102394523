// `atrium workspaces`: the person's workspaces and their roots, kept in the home's database. No server
// is started: this only reads and writes the stored workspaces.

import { nearestWord } from '../../shared/nearestWord.ts';
import type { WorkspaceView } from '../../shared/domain.ts';
import { startHostCore } from '../app/hostCore.ts';
import type { CliInvocation } from './cliArgs.ts';
import { CliFailure, UsageError, wholePath } from './cliArgs.ts';
import { visible } from './formatOutput.ts';

export interface WorkspaceIo {
  out(text: string): void;
  err(text: string): void;
}

export async function runWorkspaces(invocation: CliInvocation, home: string, io: WorkspaceIo): Promise<number> {
  const core = await startHostCore({ home, onlyServers: [], keepAliveMs: 0 });
  try {
    const { api } = core;
    const [action, name, ...dirs] = invocation.args;
    const byName = async (wanted: string | undefined) => {
      const workspaces = await api.listWorkspaces({});
      const found = workspaces.find((w) => w.name === wanted);
      if (found) return found;
      // A name that is not there is not a slip in how the command is typed (exit 2): it is said as a missing server is.
      const meant = nearestWord(wanted ?? '', workspaces.map((w) => w.name));
      throw new CliFailure(`there is no workspace called "${wanted ?? ''}"${meant ? `: did you mean "${meant}"?` : ''}`);
    };
    const roots = dirs.map((dir) => ({ uri: wholePath(dir) }));
    switch (action) {
      case undefined:
        break;
      case 'set': {
        if (name === undefined) throw new UsageError('"workspaces set" takes <name> <dir>...');
        const existing = (await api.listWorkspaces({})).find((w) => w.name === name);
        if (existing) await api.setWorkspaceRoots({ workspaceId: existing.id, roots });
        else await api.createWorkspace({ name, roots });
        break;
      }
      case 'use':
        await api.activateWorkspace({ workspaceId: (await byName(name)).id });
        break;
      case 'remove':
        await api.deleteWorkspace({ workspaceId: (await byName(name)).id });
        break;
      default:
        throw new UsageError(`"workspaces" takes set, use or remove, not "${action}"`);
    }
    const all = await api.listWorkspaces({});
    io.out(invocation.json ? JSON.stringify(all, null, 2) : all.map(describe).join('\n'));
    return 0;
  } finally {
    await core.shutdown();
  }
}

function describe(workspace: WorkspaceView): string {
  const lines = [`${workspace.active ? '* ' : '  '}${visible(workspace.name)}`];
  for (const root of workspace.roots) lines.push(`    ${visible(root.uri)}${workspace.missingRoots?.includes(root.uri) ? '  (missing)' : ''}`);
  if (workspace.roots.length === 0) lines.push('    (no roots)');
  return lines.join('\n');
}
