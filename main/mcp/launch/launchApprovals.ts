// The launches the person approved, one per server name, in `launch-approvals.json` in the data folder,
// each a pin signed with a key that is not in the folder in plain text (pinKey.ts). A server whose pin is
// not one this front end signed — new, imported, pasted, edited by hand or by another program, an entry
// written by hand, a script or a program on the PATH that changed — does not start until the person
// approves what it runs now, in Atrium's window or on its command line.

import { join } from 'node:path';
import type { LaunchReview, LaunchRisk } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { loadServersFile, serversFilePath } from '../config/serversFile.ts';
import { buildServerEnvironment } from '../stdio/serverEnvironment.ts';
import { serversWorkingFolder } from '../stdio/serverFolder.ts';
import type { ApprovalRecord, ApprovalsDocument } from './approvalsFile.ts';
import { readApprovals, writeApprovals } from './approvalsFile.ts';
import { definitionFingerprint } from './launchDefinition.ts';
import type { LaunchPin, Resolution } from './launchPin.ts';
import { describeChanges, launchPin, missingPaths, pinView, resolveLaunch, sameDefinition, sameResolution, signedText } from './launchPin.ts';
import { withFileLock } from '../../store/fileLock.ts';
import { launchRisks } from './launchRisks.ts';
import type { LaunchUpgrade } from './launchUpgrade.ts';
import type { LaunchPinKeys, PinKey } from './pinKey.ts';
import { pinKeyFrom } from './pinKey.ts';

/** What the approvals say of a definition; the start dialog adds where it came from, what it can touch and the policy's word. */
export type ApprovalReview = Omit<LaunchReview, 'reach' | 'origin' | 'blocked'>;

/** Thrown when the definition the person looked at is no longer the server's (it changed meanwhile). */
export class StaleApprovalError extends Error {
  readonly code = 'invalid_params';
}

export function launchApprovalsPath(home: string): string {
  return join(home, 'launch-approvals.json');
}

/** The person's approvals; with the organisation's policy before them they are every connection's gate (launchGate.ts). */
export class LaunchApprovals {
  private document: ApprovalsDocument;
  private readonly path: string;
  /** The key whose approvals count here. */
  private readonly own: PinKey;
  /** Every key an approval is signed with: the own one first, then those of the front ends that share the folder. */
  private readonly signers: readonly PinKey[];

  /** Names an older Atrium's unkeyed pins approve, found after its upgrade: written by hand or by a copy; they count for nothing. */
  private unsigned: ReadonlySet<string> = new Set();
  /** Where the data folder's servers run when their definition names no folder (serverFolder.ts). */
  private readonly workingFolder: string;

  private constructor(path: string, document: ApprovalsDocument, own: PinKey, signers: readonly PinKey[], workingFolder: string) {
    this.path = path;
    this.document = document;
    this.own = own;
    this.signers = signers;
    this.workingFolder = workingFolder;
  }

  /**
   * Opens the approvals of a data folder. On the first run of this Atrium on a folder an older one used
   * (launchUpgrade.ts), what that Atrium ran is approved once as it stands: its approved servers, or
   * before it had approvals, its enabled ones. Nothing else is ever approved without the person.
   */
  static async open(home: string, keys: LaunchPinKeys, upgrade: LaunchUpgrade): Promise<LaunchApprovals> {
    const own = pinKeyFrom(await keys.own());
    const others = await Promise.all((keys.alsoSignWith ?? []).map(async (key) => pinKeyFrom(await key())));
    const signers = [own, ...others.filter((key) => key.id !== own.id)];
    const path = launchApprovalsPath(home);
    const stored = await readApprovals(path);
    const approvals = new LaunchApprovals(path, stored.kind === 'current' ? stored.document : { version: 2, byKey: {} }, own, signers, serversWorkingFolder(home));
    if (upgrade.isDue()) {
      upgrade.consume();
      if (stored.kind === 'absent' || stored.kind === 'earlier') await approvals.carryOver(home, stored.kind === 'earlier' ? stored.fingerprints : undefined);
    } else if (stored.kind === 'earlier') {
      approvals.unsigned = new Set(Object.keys(stored.fingerprints));
    }
    return approvals;
  }

  /** Before anything starts: undefined when this definition is the approved one; else whether it is new or changed since. */
  check(server: ServerDefinition): 'new' | 'changed' | undefined {
    const record = this.verified(this.own, server.id);
    if (!record) return 'new';
    return sameDefinition(record.pin, launchPin(server, this.own)) ? undefined : 'changed';
  }

  /** Just before a local server is spawned, with the environment it gets: whether its program and scripts are the approved ones. */
  async confirm(server: ServerDefinition, environment: Readonly<Record<string, string>>): Promise<'changed' | undefined> {
    const record = this.verified(this.own, server.id);
    const current = launchPin(server, this.own, await resolveLaunch(server, async () => environment, this.workingFolder));
    return record && sameDefinition(record.pin, current) && sameResolution(record.pin, current) ? undefined : 'changed';
  }

  /** What the person is shown before approving: what it runs now, what was approved before, what changed, the risks. */
  async review(server: ServerDefinition): Promise<ApprovalReview> {
    const current = launchPin(server, this.own, await this.resolutionOf(server));
    const missing = missingPaths(server);
    const record = this.verified(this.own, server.id);
    const approved = record && sameDefinition(record.pin, current) && sameResolution(record.pin, current) ? undefined : record?.pin;
    return {
      serverId: server.id,
      hash: this.own.sign(signedText(server.id, current)),
      definition: pinView(current),
      ...(approved ? { approved: pinView(approved) } : {}),
      current: record !== undefined && approved === undefined,
      changes: approved ? describeChanges(approved, current) : this.approvedElsewhere(server.id),
      risks: [...launchRisks(server), ...this.unverified(server.id)],
      ...(missing.length > 0 ? { missing } : {}),
    };
  }

  /** Approves what the server runs now; `seen` is the hash the person was shown, refused when it no longer matches. */
  async approve(server: ServerDefinition, seen?: string): Promise<void> {
    const resolution = await this.resolutionOf(server);
    if (seen !== undefined && seen !== this.own.sign(signedText(server.id, launchPin(server, this.own, resolution)))) {
      throw new StaleApprovalError(`${server.id} changed while you were looking at it; review what it runs now before starting it`);
    }
    // Read, changed and written under the file's lock: another Atrium's approval is never written over.
    await withFileLock(this.path, async () => {
      await this.refresh();
      this.record(server, resolution, 'person');
      await this.write();
    });
  }

  /** A server renamed in Atrium keeps its approval when what it runs did not change. */
  async rename(from: string, server: ServerDefinition): Promise<void> {
    await withFileLock(this.path, async () => {
      await this.refresh();
      let moved = false;
      for (const key of this.signers) {
        const record = this.verified(key, from);
        if (!record || !sameDefinition(record.pin, launchPin(server, key))) continue;
        const servers = this.document.byKey[key.id] ?? {};
        delete servers[from];
        servers[server.id] = { ...record, mac: key.sign(signedText(server.id, record.pin)) };
        moved = true;
      }
      if (moved) await this.write();
    });
  }

  /** The upgrade: what an older Atrium ran is approved once, as it stands. */
  private async carryOver(home: string, fingerprints: Record<string, string> | undefined): Promise<void> {
    const { servers } = await loadServersFile(serversFilePath(home));
    for (const server of servers) {
      if (fingerprints ? fingerprints[server.id] !== definitionFingerprint(server) : server.disabled) continue;
      this.record(server, await this.resolutionOf(server), fingerprints ? 'earlier-approval' : 'existing-setup');
    }
    await this.write();
  }

  private record(server: ServerDefinition, resolution: Resolution, by: ApprovalRecord['by']): void {
    const approvedAt = new Date().toISOString();
    for (const key of this.signers) {
      const pin = launchPin(server, key, resolution);
      this.document.byKey[key.id] = { ...this.document.byKey[key.id], [server.id]: { pin, mac: key.sign(signedText(server.id, pin)), approvedAt, by } };
    }
  }

  /** The approval filed under `key` for this name, if that key signed it. */
  private verified(key: PinKey, serverId: string): ApprovalRecord | undefined {
    const record = Object.hasOwn(this.document.byKey, key.id) ? this.document.byKey[key.id]?.[serverId] : undefined;
    return record && key.verify(signedText(serverId, record.pin), record.mac) ? record : undefined;
  }

  /** Approved by another front end on this folder, whose approvals are not this one's (the desktop app asks itself). */
  private approvedElsewhere(serverId: string): string[] {
    if (this.verified(this.own, serverId)) return [];
    return this.signers.some((key) => key !== this.own && this.verified(key, serverId))
      ? ['You approved it on the command line or in the browser mode. The desktop app keeps approvals of its own, signed with a key from your system’s keychain, so it asks you here once.']
      : [];
  }

  /** An entry for this name that no key this Atrium holds signed: written by hand, by another program, or with a key since lost. */
  private unverified(serverId: string): LaunchRisk[] {
    if (this.verified(this.own, serverId)) return [];
    const forged =
      this.unsigned.has(serverId) ||
      Object.entries(this.document.byKey).some(([keyId, servers]) => Object.hasOwn(servers, serverId) && !this.signers.some((key) => key.id === keyId && this.verified(key, serverId)));
    return forged
      ? [{ kind: 'unverified-approval', message: 'launch-approvals.json holds an approval for it that Atrium did not sign: it was written by hand or by another program (or with a key this Atrium no longer has). It does not count.' }]
      : [];
  }

  /** The program and scripts a server runs, looked up with the environment and in the folder it will get. */
  private resolutionOf(server: ServerDefinition): Promise<Resolution> {
    return resolveLaunch(server, () => (server.transport === 'stdio' ? buildServerEnvironment(server.env) : Promise.resolve({})), this.workingFolder);
  }

  /** Another Atrium (the command line beside the window) may have approved something since. */
  private async refresh(): Promise<void> {
    const latest = await readApprovals(this.path);
    if (latest.kind === 'current') this.document = latest.document;
  }

  private async write(): Promise<void> {
    await writeApprovals(this.path, this.document);
  }
}


export type { LaunchPin };
