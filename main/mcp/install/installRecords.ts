// What Atrium installed, and from where: `installs.json` in the data folder, one record per server name —
// its origin (a registry's entry with its publisher, or a bundle with its hash and signature), the values
// it asks for, and a fingerprint of the definition it was installed with. The start dialog names a
// server's origin only while it still runs what was installed, and the policy's `registryOnly` lets a
// server start only while it runs what a registry's entry made. Each record is signed with the launch
// approvals' keys (pinKey.ts), and a front end believes only its own key's, as with approvals: a record
// written or edited by hand, or by another program, counts for nothing.

import { join } from 'node:path';
import type { ServerOrigin } from '../../../shared/installs.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { definitionFingerprint } from '../launch/launchDefinition.ts';
import type { LaunchPinKeys, PinKey } from '../launch/pinKey.ts';
import { pinKeyFrom } from '../launch/pinKey.ts';
import { DamagedData, jsonRecovery, readDataFile, writeFileAtomically } from '../../store/dataFile.ts';
import { withFileLock } from '../../store/fileLock.ts';
import { jsonFileText, jsonProblem } from '../../../shared/jsonProblem.ts';

interface InstallRecord {
  origin: ServerOrigin;
  fingerprint: string;
  installedAt: string;
  /** Key id → the HMAC of the record under that key. */
  macs: Record<string, string>;
}

type InstallsDocument = { version: 1; servers: Record<string, InstallRecord> };

export function installRecordsPath(home: string): string {
  return join(home, 'installs.json');
}

export class InstallRecords {
  private document: InstallsDocument;
  private readonly path: string;
  private readonly own: PinKey;
  private readonly signers: readonly PinKey[];

  private constructor(path: string, document: InstallsDocument, own: PinKey, signers: readonly PinKey[]) {
    this.path = path;
    this.document = document;
    this.own = own;
    this.signers = signers;
  }

  static async open(home: string, keys: LaunchPinKeys): Promise<InstallRecords> {
    const own = pinKeyFrom(await keys.own());
    const others = await Promise.all((keys.alsoSignWith ?? []).map(async (key) => pinKeyFrom(await key())));
    const path = installRecordsPath(home);
    return new InstallRecords(path, await readRecords(path), own, [own, ...others.filter((key) => key.id !== own.id)]);
  }

  /** Where the server came from, while it runs exactly what was installed and this front end signed the record. */
  originOf(server: ServerDefinition): ServerOrigin | undefined {
    const record = Object.hasOwn(this.document.servers, server.id) ? this.document.servers[server.id] : undefined;
    if (!record || record.fingerprint !== definitionFingerprint(server)) return undefined;
    const mac = Object.hasOwn(record.macs, this.own.id) ? record.macs[this.own.id] : undefined;
    return mac !== undefined && this.own.verify(signedText(server.id, record.origin, record.fingerprint), mac) ? record.origin : undefined;
  }

  /** The registry a server was installed from, while it runs what was installed (the policy's registryOnly asks). */
  installedFrom(server: ServerDefinition): string | undefined {
    const origin = this.originOf(server);
    return origin?.kind === 'registry' ? origin.registry : undefined;
  }

  /** Records what a server was installed from (replacing what was recorded for its name). */
  async record(server: ServerDefinition, origin: ServerOrigin): Promise<void> {
    const fingerprint = definitionFingerprint(server);
    const text = signedText(server.id, origin, fingerprint);
    const record: InstallRecord = { origin, fingerprint, installedAt: new Date().toISOString(), macs: Object.fromEntries(this.signers.map((key) => [key.id, key.sign(text)])) };
    await withFileLock(this.path, async () => {
      this.document = await readRecords(this.path);
      this.document.servers[server.id] = record;
      await writeFileAtomically(this.path, `${JSON.stringify(this.document, null, 2)}\n`);
    });
  }
}

function signedText(serverId: string, origin: ServerOrigin, fingerprint: string): string {
  return `install\0${serverId}\0${JSON.stringify(origin)}\0${fingerprint}`;
}

async function readRecords(path: string): Promise<InstallsDocument> {
  const stored = await readDataFile<InstallsDocument>({
    path,
    parse: (bytes) => {
      const problem = jsonProblem(bytes);
      if (problem) throw new DamagedData(problem);
      const parsed = JSON.parse(jsonFileText(bytes)) as { version?: unknown; servers?: unknown };
      if (parsed.version !== 1 || typeof parsed.servers !== 'object' || parsed.servers === null || Array.isArray(parsed.servers)) {
        throw new DamagedData('it does not hold the servers Atrium installed');
      }
      // A record of the wrong shape is left out: it could not have been verified anyway.
      const servers = Object.entries(parsed.servers as Record<string, unknown>).filter((entry): entry is [string, InstallRecord] => isRecord(entry[1]));
      return { version: 1, servers: Object.fromEntries(servers) };
    },
    withoutIt: 'the servers you installed are still configured and run as before; the start dialog no longer says where they came from',
    recovery: jsonRecovery('installs.json', 'Or carry on: install a server again to have its origin shown.'),
    keepLastGood: true,
  });
  return stored ?? { version: 1, servers: {} };
}

function isRecord(value: unknown): value is InstallRecord {
  const record = value as Partial<InstallRecord> | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.fingerprint === 'string' &&
    typeof record.macs === 'object' &&
    record.macs !== null &&
    typeof record.origin === 'object' &&
    record.origin !== null &&
    (record.origin.kind === 'registry' || record.origin.kind === 'bundle')
  );
}
