// What Atrium learnt of each stdio server's protocol era, kept across runs in `learned-eras.json` in the
// data folder. A 2025-era server that exits on the 2026-07-28 discovery probe is otherwise started twice
// at every host start (the probe, then the plain initialize); with its verdict kept, it is started once.
// One that answers the probe as a 2025-era server (method not found) is kept too: each start then skips
// the probe's round trip, which a start of many servers pays while they are all still starting. One that
// leaves the probe unanswered within its time limit is kept only when it does so a second start running:
// a 2025-era server that ignores the probe does it every time, where a modern one slow to start once (a
// first `npx` download) would otherwise lose its era for a week. Only
// that verdict is kept: a modern one costs a single round trip to learn again. A verdict holds for
// the exact launch definition it was learnt with (its launch hash) and for a week at most, after which the
// probe runs again — an upgraded server would otherwise keep the old handshake for ever (the SDK's advice).
// The file is a cache: a damaged or unreadable one is set aside and nothing is remembered.

import { join } from 'node:path';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { DamagedData, readDataFile, writeFileAtomically } from '../../store/dataFile.ts';
import { jsonFileText, jsonProblem } from '../../../shared/jsonProblem.ts';
import { definitionFingerprint } from './launchDefinition.ts';

/** How long a learnt 2025-era verdict is trusted before the probe runs again. */
export const LEGACY_VERDICT_DAYS = 7;

interface LearnedEntry {
  hash: string;
  era: 'legacy';
  learnedAt: string;
}

/** A probe left unanswered at a server's last probed start, for the definition it was started with. */
interface UnansweredEntry {
  hash: string;
  at: string;
}

interface LearnedDocument {
  version: 1;
  servers: Record<string, LearnedEntry>;
  unanswered?: Record<string, UnansweredEntry>;
}

/** The host's memory of servers' eras, as the connections use it (`ConnectionServices.eras`). */
export interface EraMemory {
  /** Whether this exact definition is known to speak only the 2025-era handshake. */
  knownLegacy(server: ServerDefinition): boolean;
  /** Learnt now: the server answered the plain initialize after the discovery probe failed (it exited, or did not know it). */
  learnLegacy(server: ServerDefinition): void;
  /** The probe went unanswered within its time limit: learnt as 2025-era if it did at the last probed start too. */
  probeUnanswered(server: ServerDefinition): void;
  /** The probe was answered (a modern server): an unanswered one before does not count any more. */
  probeAnswered(server: ServerDefinition): void;
}

export class LearnedEras implements EraMemory {
  private readonly path: string;
  private readonly document: LearnedDocument;
  private readonly now: () => number;
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(path: string, document: LearnedDocument, now: () => number) {
    this.path = path;
    this.document = document;
    this.now = now;
  }

  static async open(home: string, options: { now?: () => number } = {}): Promise<LearnedEras> {
    const path = join(home, 'learned-eras.json');
    const document = await readDataFile<LearnedDocument>({
      path,
      parse: (bytes) => {
        const problem = jsonProblem(bytes);
        if (problem) throw new DamagedData(problem);
        const parsed = JSON.parse(jsonFileText(bytes)) as Partial<LearnedDocument> | null;
        const servers = parsed && typeof parsed.servers === 'object' && parsed.servers !== null && !Array.isArray(parsed.servers) ? parsed.servers : {};
        const valid = Object.entries(servers).filter(([, entry]) => entry?.era === 'legacy' && typeof entry.hash === 'string' && typeof entry.learnedAt === 'string');
        const unanswered = parsed && typeof parsed.unanswered === 'object' && parsed.unanswered !== null && !Array.isArray(parsed.unanswered) ? parsed.unanswered : {};
        const validUnanswered = Object.entries(unanswered).filter(([, entry]) => typeof entry?.hash === 'string' && typeof entry.at === 'string');
        return { version: 1, servers: Object.fromEntries(valid), unanswered: Object.fromEntries(validUnanswered) };
      },
      withoutIt: 'Atrium learns again which servers speak the 2025-era protocol only',
      recovery: () => ['Nothing to do: Atrium learns it again as the servers start.'],
    });
    return new LearnedEras(path, document ?? { version: 1, servers: {} }, options.now ?? Date.now);
  }

  knownLegacy(server: ServerDefinition): boolean {
    const entry = this.document.servers[server.id];
    return entry !== undefined && entry.hash === definitionFingerprint(server) && this.isRecent(entry.learnedAt);
  }

  learnLegacy(server: ServerDefinition): void {
    // A server still starting when the host stopped may finish its handshake after: nothing is written
    // in the data folder once the host has stopped (it may be gone, or another host's by then).
    if (this.closed) return;
    delete this.document.unanswered?.[server.id];
    this.document.servers[server.id] = { hash: definitionFingerprint(server), era: 'legacy', learnedAt: new Date(this.now()).toISOString() };
    this.write();
  }

  probeUnanswered(server: ServerDefinition): void {
    if (this.closed) return;
    const before = this.document.unanswered?.[server.id];
    const hash = definitionFingerprint(server);
    if (before !== undefined && before.hash === hash && this.isRecent(before.at)) {
      this.learnLegacy(server);
      return;
    }
    this.document.unanswered = { ...this.document.unanswered, [server.id]: { hash, at: new Date(this.now()).toISOString() } };
    this.write();
  }

  probeAnswered(server: ServerDefinition): void {
    if (this.closed || this.document.unanswered?.[server.id] === undefined) return;
    delete this.document.unanswered[server.id];
    this.write();
  }

  private isRecent(at: string): boolean {
    const age = this.now() - Date.parse(at);
    return Number.isFinite(age) && age >= 0 && age < LEGACY_VERDICT_DAYS * 24 * 3_600_000;
  }

  private write(): void {
    const text = `${JSON.stringify(this.document, null, 2)}\n`;
    // Written one after another; a write that fails only means learning it again next time.
    this.writing = this.writing.then(() => writeFileAtomically(this.path, text)).catch(() => undefined);
  }

  /** Learns nothing more; resolves once what was learnt is on disk (the host's shutdown). */
  close(): Promise<void> {
    this.closed = true;
    return this.writing;
  }
}
