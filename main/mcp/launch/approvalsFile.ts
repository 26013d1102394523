// `launch-approvals.json`: the approvals, filed under the key that signed them (a front end believes only
// its own key's), each a pin and its HMAC. Read and written through the data-file rules: atomically, the
// last good copy kept, a damaged file set aside byte for byte and reported — and then nothing in it counts.

import { existsSync } from 'node:fs';
import type { LaunchPin } from './launchPin.ts';
import { DamagedData, jsonRecovery, readDataFile, writeFileAtomically } from '../../store/dataFile.ts';
import { jsonFileText, jsonProblem } from '../../../shared/jsonProblem.ts';
import { isRecord } from '../../../shared/isRecord.ts';

export interface ApprovalRecord {
  pin: LaunchPin;
  /** The HMAC of the server's name and pin under the key this record is filed under. */
  mac: string;
  approvedAt: string;
  /** 'person': approved in Atrium; 'existing-setup', 'earlier-approval': carried over once from an older Atrium. */
  by: 'person' | 'existing-setup' | 'earlier-approval';
}

export interface ApprovalsDocument {
  version: 2;
  /** Key id → server name → its approval under that key. */
  byKey: Record<string, Record<string, ApprovalRecord>>;
}

/** What the file holds: nothing yet, approvals, an older Atrium's unkeyed pins (name → fingerprint), or damage. */
export type StoredApprovals =
  | { kind: 'absent' }
  | { kind: 'damaged' }
  | { kind: 'current'; document: ApprovalsDocument }
  | { kind: 'earlier'; fingerprints: Record<string, string> };

export async function readApprovals(path: string): Promise<StoredApprovals> {
  const existed = existsSync(path);
  const stored = await readDataFile<StoredApprovals>({
    path,
    parse: (bytes) => parseApprovals(bytes),
    withoutIt: 'no server counts as approved: each asks for your approval again before it starts',
    recovery: jsonRecovery('launch-approvals.json', 'Or carry on: approve each server again when Atrium asks.'),
    keepLastGood: true,
  });
  // A file that was there and could not be read was set aside (and reported): it approves nothing.
  return stored ?? (existed ? { kind: 'damaged' } : { kind: 'absent' });
}

export async function writeApprovals(path: string, document: ApprovalsDocument): Promise<void> {
  await writeFileAtomically(path, `${JSON.stringify(document, null, 2)}\n`);
}

function parseApprovals(bytes: Buffer): StoredApprovals {
  const problem = jsonProblem(bytes);
  if (problem) throw new DamagedData(problem);
  const parsed = JSON.parse(jsonFileText(bytes)) as unknown;
  if (!isRecord(parsed)) throw new DamagedData('it does not hold the servers you approved (it is not an object)');
  if (parsed.version === 1) {
    if (!isRecord(parsed.servers)) throw new DamagedData('it does not hold the servers you approved ("servers" is missing or not an object)');
    const fingerprints = Object.entries(parsed.servers).flatMap(([name, entry]) => (isRecord(entry) && typeof entry.hash === 'string' ? [[name, entry.hash] as const] : []));
    return { kind: 'earlier', fingerprints: Object.fromEntries(fingerprints) };
  }
  if (parsed.version !== 2) throw new DamagedData(`it was written by another version of Atrium (version ${JSON.stringify(parsed.version) ?? 'missing'}, not 2)`);
  if (!isRecord(parsed.byKey)) throw new DamagedData('it does not hold the servers you approved ("byKey" is missing or not an object)');
  const byKey: ApprovalsDocument['byKey'] = {};
  for (const [keyId, servers] of Object.entries(parsed.byKey)) {
    if (!isRecord(servers)) continue;
    // An entry of the wrong shape is left out: it could not have been verified anyway.
    const records = Object.entries(servers).filter((entry): entry is [string, ApprovalRecord] => isApprovalRecord(entry[1]));
    byKey[keyId] = Object.fromEntries(records);
  }
  return { kind: 'current', document: { version: 2, byKey } };
}

function isApprovalRecord(value: unknown): value is ApprovalRecord {
  if (!isRecord(value) || typeof value.mac !== 'string' || !isRecord(value.pin)) return false;
  const pin = value.pin;
  if (pin.transport === 'stdio') {
    return typeof pin.command === 'string' && isStrings(pin.args) && isRecord(pin.env) && (pin.program === null || typeof pin.program === 'string') && isRecord(pin.files);
  }
  return (pin.transport === 'http' || pin.transport === 'sse') && typeof pin.url === 'string' && isStrings(pin.headerNames);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
