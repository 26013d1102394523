// `atrium import <file>`: bring the servers of a Claude Desktop, VS Code or Cursor config into Atrium's
// own file. A server already there (under any name, whatever trust or on/off it was given since) is not
// added again; one whose name is taken by a different server is added under a numbered name, so an
// import never overwrites what the person already has.

import type { ConfigProblem } from '../../../shared/domain.ts';
import { isSameServer } from './serverConfig.ts';
import type { ServerDefinition } from './serverConfig.ts';
import { changeServersFile, loadServersFile, serversTableOf } from './serversFile.ts';

export interface ImportReport {
  added: { id: string; from: string }[];
  unchanged: string[];
  problems: ConfigProblem[];
}

export async function importServers(sourcePath: string, targetPath: string): Promise<ImportReport> {
  const source = await loadServersFile(sourcePath);
  const wholeFile = (message: string): ImportReport => ({ added: [], unchanged: [], problems: [{ serverId: null, field: '(file)', message }] });
  if (source.raw === null && source.problems.length === 0) return wholeFile(`${sourcePath}: there is no such file`);
  if (source.servers.length === 0 && source.problems.length === 0) {
    const holdsTable = source.raw?.mcpServers !== undefined || source.raw?.servers !== undefined || source.raw?.mcp !== undefined;
    return wholeFile(holdsTable ? `${sourcePath} holds no servers: its list of them is empty` : `${sourcePath} holds no servers: Atrium reads them from "mcpServers" (Claude Desktop, Cursor), "servers" or "mcp.servers" (VS Code)`);
  }
  const report: ImportReport = { added: [], unchanged: [], problems: source.problems };
  // Merged into what the file holds now, under its lock: another import or the window writing at the
  // same moment is never written over.
  await changeServersFile(targetPath, (target) => {
    report.added = [];
    report.unchanged = [];
    const merged: ServerDefinition[] = [...target.servers];
    const taken = new Set([...target.servers.map((s) => s.id), ...Object.keys(serversTableOf(target.raw))]);
    for (const server of source.servers) {
      // The same server under any name is already there (an import run twice adds nothing).
      const existing = merged.find((s) => isSameServer(s, server));
      if (existing) {
        report.unchanged.push(server.id);
        continue;
      }
      let id = server.id;
      for (let n = 2; taken.has(id); n++) id = `${server.id}-${n}`;
      taken.add(id);
      // Trust is granted in Atrium, never brought in with a file: whatever the file says, the server is not trusted.
      const { trusted: _trusted, ...untrusted } = server;
      merged.push({ ...untrusted, id });
      report.added.push({ id, from: server.id });
    }
    return report.added.length > 0 ? { servers: merged } : undefined;
  });
  return report;
}
