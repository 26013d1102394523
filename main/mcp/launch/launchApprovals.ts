// The launch definitions the person approved, pinned by hash, one per server name, in
// `launch-approvals.json` in the data folder. A server whose definition is not the one approved under
// its name — new, imported, pasted, edited by hand or by another program — does not start until the
// person approves that exact definition in Atrium's window or on its command line.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LaunchReview, LaunchView } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { loadServersFile, serversFilePath } from '../config/serversFile.ts';
import { DamagedData, jsonRecovery, readDataFile, writeFileAtomically } from '../../store/dataFile.ts';
import { withFileLock } from '../../store/fileLock.ts';
import { jsonProblem } from '../../store/jsonProblem.ts';
import { launchHash, launchView } from './launchDefinition.ts';
import { launchRisks } from './launchRisks.ts';

interface ApprovalEntry {
  hash: string;
  definition: LaunchView;
  approvedAt: string;
  /** 'person': approved in Atrium; 'existing-setup': already running when approvals were introduced. */
  by: 'person' | 'existing-setup';
}

interface ApprovalsDocument {
  version: 1;
  servers: Record<string, ApprovalEntry>;
}

/** Thrown when the definition the person looked at is no longer the server's (it changed meanwhile). */
export class StaleApprovalError extends Error {
  readonly code = 'invalid_params';
}

export function launchApprovalsPath(home: string): string {
  return join(home, 'launch-approvals.json');
}

export class LaunchApprovals {
  private document: ApprovalsDocument;
  private readonly path: string;

  private constructor(path: string, document: ApprovalsDocument) {
    this.path = path;
    this.document = document;
  }

  /**
   * Opens the approvals of a data folder. The first time (no file yet), the servers its servers.json
   * has enabled are approved once as they stand: Atrium started them at every run until now, and a
   * working setup must not stop. Disabled ones were never started, so they are asked about.
   */
  static async open(home: string): Promise<LaunchApprovals> {
    const path = launchApprovalsPath(home);
    const existing = await readDocument(path);
    if (existing) return new LaunchApprovals(path, existing);
    const approvals = new LaunchApprovals(path, { version: 1, servers: {} });
    const { servers } = await loadServersFile(serversFilePath(home));
    for (const server of servers.filter((s) => !s.disabled)) approvals.record(server, 'existing-setup');
    await approvals.write();
    return approvals;
  }

  /** undefined when this exact definition is approved; else whether the server is new or changed since. */
  check(server: ServerDefinition): 'new' | 'changed' | undefined {
    const entry = this.document.servers[server.id];
    if (!entry) return 'new';
    return entry.hash === launchHash(server) ? undefined : 'changed';
  }

  review(server: ServerDefinition): LaunchReview {
    const entry = this.document.servers[server.id];
    const hash = launchHash(server);
    return {
      serverId: server.id,
      hash,
      definition: launchView(server),
      ...(entry && entry.hash !== hash ? { approved: entry.definition } : {}),
      current: entry?.hash === hash,
      risks: launchRisks(server),
    };
  }

  /** Approves this exact definition; `seen` is the hash the person was shown, refused when it no longer matches. */
  async approve(server: ServerDefinition, seen?: string): Promise<void> {
    if (seen !== undefined && seen !== launchHash(server)) {
      throw new StaleApprovalError(`${server.id} changed while you were looking at it; review the new definition before starting it`);
    }
    await withFileLock(this.path, async () => {
      await this.refresh();
      this.record(server, 'person');
      await this.write();
    });
  }

  /** A server renamed in Atrium keeps its approval when what it runs did not change. */
  async rename(from: string, server: ServerDefinition): Promise<void> {
    await withFileLock(this.path, async () => {
      await this.refresh();
      const entry = this.document.servers[from];
      if (!entry || entry.hash !== launchHash(server)) return;
      delete this.document.servers[from];
      this.document.servers[server.id] = entry;
      await this.write();
    });
  }

  private record(server: ServerDefinition, by: ApprovalEntry['by']): void {
    this.document.servers[server.id] = { hash: launchHash(server), definition: launchView(server), approvedAt: new Date().toISOString(), by };
  }

  /** Another Atrium (the command line beside the window) may have approved something since; read under the file's lock. */
  private async refresh(): Promise<void> {
    const latest = await readDocument(this.path);
    if (latest) this.document = latest;
  }

  private async write(): Promise<void> {
    await writeFileAtomically(this.path, `${JSON.stringify(this.document, null, 2)}\n`);
  }
}

/**
 * The stored approvals; null when there is no file. A file that cannot be read approves nothing (every
 * server asks again): it is kept aside as it was, never overwritten, and every front end says so.
 */
async function readDocument(path: string): Promise<ApprovalsDocument | null> {
  const existed = existsSync(path);
  const document = await readDataFile<ApprovalsDocument>({
    path,
    parse: (bytes) => {
      const problem = jsonProblem(bytes);
      if (problem) throw new DamagedData(problem);
      const text = bytes.toString('utf8');
      const parsed = JSON.parse(text) as Partial<ApprovalsDocument> | null;
      if (!parsed || typeof parsed !== 'object' || typeof parsed.servers !== 'object' || parsed.servers === null || Array.isArray(parsed.servers)) {
        throw new DamagedData('it does not hold the servers you approved ("servers" is missing or not an object)');
      }
      const valid = Object.entries(parsed.servers).filter(([, entry]) => typeof entry?.hash === 'string' && typeof entry.definition === 'object');
      return { version: 1, servers: Object.fromEntries(valid) };
    },
    withoutIt: 'every server asks for your approval again before it starts',
    recovery: jsonRecovery('launch-approvals.json', 'Or carry on: approve each server again when Atrium asks.'),
    keepLastGood: true,
  });
  if (document) return document;
  // Damaged (set aside above): nothing counts as approved, not even the servers that are running today.
  return existed ? { version: 1, servers: {} } : null;
}
