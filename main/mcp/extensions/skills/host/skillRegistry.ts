// Skills: what each server offers, as Atrium last listed it (`skills/list`, every page), kept no longer
// than the listing's `ttlMs` says before it is listed again, and each skill's entry by its SKILL.md URI,
// listed or not (`skills/get`). A skill is known by its server's name in Atrium and its URI: two servers'
// skills with one URI are two skills, and a name they share is marked so no skill passes for another.
// Every entry seen is held against the person's approval of that skill: one that lists other files than
// were approved revokes the approval. Nothing here reads a skill's files. It announces each server's
// skills when they change.

import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { ChangeListeners } from '../../../../changeListeners.ts';
import { createToolIndex } from '../../../../host/tools/toolRanking.ts';
import type { ConnectionSkills } from '../connectionSkills.ts';
import type { ServerSkillList, SkillSummary } from '../contract/skillViews.ts';
import type { SkillApprovalStore } from '../store/skillApprovalStore.ts';
import { approvalHolds, summarize } from './skillEntries.ts';

/**
 * How long a listing counts as current when its server gives no `ttlMs` (a 2025-era server): not at all,
 * so a use asks the server for the skill's entry as it is now, and an approval binds to that.
 */
const DEFAULT_TTL_MS = 0;

export interface SkillRegistryDeps {
  /** The skills on a server's live connection; undefined when it has none now (not ready, gone). */
  connectionOf(serverId: string): ConnectionSkills | undefined;
  approvals: SkillApprovalStore;
  now?: () => number;
}

interface Listing {
  offered: boolean;
  skills: Skill[];
  refusedEntries: { uri?: string; reason: string }[];
  fetchedAt: number;
  ttlMs: number;
  error?: string;
}

/** An entry found by its URI alone (not in the listing), kept as the listing's are. */
interface Found {
  skill: Skill;
  fetchedAt: number;
  ttlMs: number;
}

export class SkillRegistry {
  private readonly deps: SkillRegistryDeps;
  private readonly now: () => number;
  private readonly listings = new Map<string, Listing>();
  private readonly found = new Map<string, Map<string, Found>>();
  private readonly listingsUnderWay = new Map<string, Promise<void>>();
  private readonly changes = new ChangeListeners<string>();
  private searchIndex: { over: string; search(query: string, limit: number): SkillSummary[] } | undefined;

  constructor(deps: SkillRegistryDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  /** Told with a server's id when its skills (or the person's approvals of them) change. */
  onChange(listener: (serverId: string) => void): () => void {
    return this.changes.add(listener);
  }

  /**
   * A server's state: once it is ready its skills are listed (nothing of them read); while it is not, what
   * it listed is forgotten. Said at every change of the server, so it lists only when none is held.
   */
  serverState(serverId: string, ready: boolean): void {
    if (!ready) {
      if (this.listings.has(serverId) || this.found.has(serverId)) this.serverGone(serverId);
    } else if (!this.listings.has(serverId)) void this.refresh(serverId);
  }

  /** The server went away or stopped: what it listed is forgotten until it is back. */
  serverGone(serverId: string): void {
    this.listings.delete(serverId);
    this.found.delete(serverId);
    this.changed(serverId);
  }

  /** Lists the server's skills again (one listing at a time per server). */
  refresh(serverId: string): Promise<void> {
    const underWay = this.listingsUnderWay.get(serverId);
    if (underWay) return underWay;
    const listing = this.listOnce(serverId).finally(() => this.listingsUnderWay.delete(serverId));
    this.listingsUnderWay.set(serverId, listing);
    return listing;
  }

  /** Every server's skills (one server's), listed again first where the listing is out of date. */
  async list(serverId?: string): Promise<ServerSkillList[]> {
    const stale = [...this.listings.keys()].filter((id) => (serverId === undefined || id === serverId) && this.isStale(this.listings.get(id)));
    if (serverId !== undefined && !this.listings.has(serverId) && this.deps.connectionOf(serverId)) stale.push(serverId);
    // A listing under way (the server just became ready) is waited for, not started again.
    const underWay = [...this.listingsUnderWay].filter(([id]) => serverId === undefined || id === serverId).map(([, listing]) => listing);
    await Promise.all([...stale.map((id) => this.refresh(id)), ...underWay]);
    return this.current(serverId);
  }

  /**
   * Resolves once the listings under way (servers that just became ready) are done, or `limitMs` has
   * passed: a server slow to list its skills does not hold the others' up for long. It starts none.
   */
  async listed(limitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
      timer.unref();
    });
    await Promise.race([Promise.all([...this.listingsUnderWay.values()]), limit]);
    clearTimeout(timer);
  }

  /** The skills as last listed, without asking any server. */
  current(serverId?: string): ServerSkillList[] {
    const shared = this.sharedNames();
    return [...this.listings]
      .filter(([id]) => serverId === undefined || id === serverId)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, listing]) => ({
        serverId: id,
        offered: listing.offered,
        skills: listing.skills.map((skill) => this.summaryOf(id, skill, true, shared)),
        refusedEntries: listing.refusedEntries,
        ...(listing.error ? { error: listing.error } : {}),
      }));
  }

  /** The skills the model may choose from: listed by a server now, and not refused by Atrium's limits. */
  offered(): SkillSummary[] {
    return this.current().flatMap((server) => server.skills.filter((skill) => skill.refused === undefined));
  }

  /** The offered skills that best match the words, best first, ranked as the tools are. */
  search(query: string, limit: number): SkillSummary[] {
    const offered = this.offered();
    // The index is made once per set of offered skills (what it ranks by), not per search.
    const over = JSON.stringify(offered.map((skill) => [skill.serverId, skill.uri, skill.name, skill.description]));
    if (this.searchIndex?.over !== over) {
      const index = createToolIndex(offered.map((skill) => ({ serverId: skill.serverId, name: skill.name, modelName: skill.uri, description: skill.description, inputSchema: {}, skill })));
      this.searchIndex = { over, search: (words, count) => index.search(words, count).map((hit) => hit.tool.skill) };
    }
    return this.searchIndex.search(query, limit);
  }

  /**
   * The entry of the skill at `uri`: the listing's while it is current, else the server's answer to
   * `skills/get` (a listing may be partial or empty). A server that cannot answer `skills/get` is held to
   * the entry it listed, however old: every file read is still checked against it.
   */
  async entry(serverId: string, uri: string, signal?: AbortSignal): Promise<{ skill: Skill; listed: boolean }> {
    const listing = this.listings.get(serverId);
    const listed = listing?.skills.find((skill) => sameUri(skill.uri, uri));
    if (listed && !this.isStale(listing)) return { skill: listed, listed: true };
    const known = this.found.get(serverId)?.get(canonical(uri));
    if (!listed && known && !this.isStale(known)) return { skill: known.skill, listed: false };
    const fresh = await this.fetchEntry(serverId, uri, signal).catch((error: unknown) => {
      if (listed) return undefined;
      throw error;
    });
    if (fresh) return { skill: fresh, listed: listed !== undefined };
    return { skill: listed as Skill, listed: true };
  }

  /** The skill's entry as its server has it now (after a read that did not match); undefined when the server cannot say. */
  async refreshEntry(serverId: string, uri: string, signal?: AbortSignal): Promise<Skill | undefined> {
    return this.fetchEntry(serverId, uri, signal).catch(() => undefined);
  }

  /** The summary of an entry, as the window and the model see it. */
  summary(serverId: string, skill: Skill, listed: boolean): SkillSummary {
    return this.summaryOf(serverId, skill, listed, this.sharedNames());
  }

  /** The person's approvals of a server's skills changed (given, taken back). */
  approvalsChanged(serverId: string): void {
    this.changed(serverId);
  }

  private async fetchEntry(serverId: string, uri: string, signal?: AbortSignal): Promise<Skill> {
    const connection = this.deps.connectionOf(serverId);
    if (!connection) throw new Error(`${serverId} is not connected`);
    const { skill, ttlMs } = await connection.get(uri, signal);
    const known = this.found.get(serverId) ?? new Map<string, Found>();
    this.found.set(serverId, known.set(canonical(skill.uri), { skill, fetchedAt: this.now(), ttlMs: ttlMs ?? DEFAULT_TTL_MS }));
    // A listed skill's fresher entry replaces the listed one.
    const listing = this.listings.get(serverId);
    const at = listing?.skills.findIndex((listed) => sameUri(listed.uri, skill.uri)) ?? -1;
    if (listing && at >= 0) listing.skills[at] = skill;
    this.observe(serverId, skill);
    this.changed(serverId);
    return skill;
  }

  private async listOnce(serverId: string): Promise<void> {
    const connection = this.deps.connectionOf(serverId);
    if (!connection) {
      this.serverGone(serverId);
      return;
    }
    const previous = this.listings.get(serverId);
    try {
      if (!(await connection.offered())) {
        this.listings.set(serverId, { offered: false, skills: [], refusedEntries: [], fetchedAt: this.now(), ttlMs: Number.POSITIVE_INFINITY });
      } else {
        const listing = await connection.list();
        this.listings.set(serverId, {
          offered: true,
          skills: listing.skills,
          refusedEntries: listing.invalid.map((entry) => ({ ...(entry.uri ? { uri: entry.uri } : {}), reason: entry.reason })),
          fetchedAt: this.now(),
          ttlMs: listing.ttlMs ?? DEFAULT_TTL_MS,
        });
        for (const skill of listing.skills) this.observe(serverId, skill);
      }
    } catch (error) {
      // What was listed before stays shown, with why it could not be listed now.
      this.listings.set(serverId, { ...(previous ?? { offered: true, skills: [], refusedEntries: [] }), fetchedAt: this.now(), ttlMs: 0, error: (error as Error).message });
    }
    this.changed(serverId);
  }

  /** An entry that lists other files than the person approved revokes the approval. */
  private observe(serverId: string, skill: Skill): void {
    const approval = this.deps.approvals.get(serverId, skill.uri);
    if (approval && approval.revokedAt === undefined && !approvalHolds(approval, skill)) this.deps.approvals.revoke(serverId, skill.uri);
  }

  private summaryOf(serverId: string, skill: Skill, listed: boolean, shared: ReadonlySet<string>): SkillSummary {
    const summary = summarize(serverId, skill, this.deps.approvals.get(serverId, skill.uri), listed);
    return shared.has(summary.name) ? { ...summary, sharedName: true } : summary;
  }

  /** Names more than one listed skill has, in one server or across servers. */
  private sharedNames(): Set<string> {
    const seen = new Set<string>();
    const shared = new Set<string>();
    for (const listing of this.listings.values()) {
      for (const skill of listing.skills) {
        const name = skill.frontmatter.name;
        if (seen.has(name)) shared.add(name);
        seen.add(name);
      }
    }
    return shared;
  }

  private isStale(kept: { fetchedAt: number; ttlMs: number } | undefined): boolean {
    return kept === undefined || this.now() - kept.fetchedAt >= kept.ttlMs;
  }

  private changed(serverId: string): void {
    this.changes.tell(serverId);
  }
}

function canonical(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}

function sameUri(a: string, b: string): boolean {
  return canonical(a) === canonical(b);
}
