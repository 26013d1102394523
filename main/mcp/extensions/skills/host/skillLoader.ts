// Skills: the one path by which a skill is loaded, for the model or the person who picked it. Its entry
// first (listed, or by its URI), refused before any read when it is beyond the limits or has no digests;
// then the person's consent (skillConsent.ts); only then its SKILL.md, read and verified (size, digest,
// frontmatter) or taken from the cache (hashed again). A file that does not match sends Atrium to the
// server for the skill's entry as it is now: a skill that changed is approved again, once; one that did
// not is refused. A conversation that loads a skill holds the entry it was loaded from, and each file it
// reads later is read against that entry alone. The person can also look at a skill without loading it.

import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { SkillFileRefused } from '../connectionSkills.ts';
import type { ConnectionSkills } from '../connectionSkills.ts';
import type { ShownSkill, SkillInUse, SkillSummary } from '../contract/skillViews.ts';
import type { SkillCache } from '../store/skillCache.ts';
import type { HeldSkill, SkillsInUseStore } from '../store/skillsInUseStore.ts';
import type { SkillConsent } from './skillConsent.ts';
import { changeSince, approvedFilesOf, isUnchanged, pathIn, sameFrontmatter } from './skillEntries.ts';
import type { SkillRegistry } from './skillRegistry.ts';
import type { TakenIn } from '../../../../host/approval/conversationTaint.ts';
import { base64ByteCount } from '../../../../../shared/blobText.ts';

/** A skill that could not be used or read, in a sentence for the person and the model. */
export class SkillRefusal extends Error {
  /** The person's own no is a use they cancelled; a check or a limit failed it. */
  readonly code: 'failed' | 'cancelled';
  /** The person said no (rather than a check or a limit). */
  readonly denied: boolean;

  constructor(message: string, options: { denied?: boolean } = {}) {
    super(message);
    this.denied = options.denied === true;
    this.code = this.denied ? 'cancelled' : 'failed';
  }
}

export interface LoadedSkill {
  serverId: string;
  skill: Skill;
  summary: SkillSummary;
  /** Its SKILL.md, verified. */
  text: string;
  toolsGranted: string[];
}

export type SkillFileRead =
  | { kind: 'file'; serverId: string; uri: string; text?: string; size: number; mimeType?: string; fromSkill: boolean; skill: SkillSummary }
  | { kind: 'folder'; folder: string; paths: string[]; skill: SkillSummary };

export interface SkillLoaderDeps {
  registry: SkillRegistry;
  /** The skills on a server's live connection; undefined when it is not ready. */
  connectionOf(serverId: string): ConnectionSkills | undefined;
  consent: SkillConsent;
  cache: SkillCache;
  inUse: SkillsInUseStore;
  /** Reads a resource of a server (a read on another server a skill drives, once the person allowed it). */
  readResource(serverId: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  /** The conversation took in a server's content: it asks before tools that could act on it. */
  tookIn(conversationId: string, content: TakenIn): void;
  /** Lets the tools of a skill's `allowed-tools` the person granted run without asking in this conversation. */
  grantTools(conversationId: string, serverId: string, tools: readonly string[]): void;
  onInUseChanged(conversationId: string): void;
}

export class SkillLoader {
  private readonly deps: SkillLoaderDeps;

  constructor(deps: SkillLoaderDeps) {
    this.deps = deps;
  }

  /** Loads a skill: its entry, the limits, the person's consent, its SKILL.md verified. Throws SkillRefusal. */
  async use(request: { serverId: string; uri: string; by: 'model' | 'person'; conversationId?: string; signal?: AbortSignal }, askedAgain = false): Promise<LoadedSkill> {
    const { serverId, uri, signal } = request;
    const { skill, summary } = await this.entry(serverId, uri, signal);
    const consent = await this.deps.consent.toUse({ summary, skill, by: request.by, ...(request.conversationId ? { conversationId: request.conversationId } : {}), ...(signal ? { signal } : {}) });
    if (!consent.allowed) throw new SkillRefusal(`the person did not allow the skill “${summary.name}” of ${serverId}`, { denied: true });
    try {
      const file = await this.verified(serverId, skill, undefined, signal);
      return { serverId, skill, summary, text: file.text ?? '', toolsGranted: consent.toolsGranted };
    } catch (error) {
      if (!(error instanceof SkillFileRefused)) throw error;
      // The entry may be out of date: a skill that changed since is approved again, once.
      const fresh = await this.deps.registry.refreshEntry(serverId, uri, signal);
      if (!askedAgain && fresh && !isUnchanged(changeSince(approvedFilesOf(skill), fresh))) return this.use(request, true);
      throw new SkillRefusal(`the skill “${summary.name}” of ${serverId} was not loaded: ${verificationSentence(error, skill)}`);
    }
  }

  /** The conversation uses the loaded skill from now on: its entry is held, it took in the server's text, and the tools the person granted run without asking. */
  hold(conversationId: string, loaded: LoadedSkill): void {
    this.deps.inUse.hold(conversationId, loaded.serverId, loaded.skill);
    this.deps.tookIn(conversationId, { kind: 'skill', serverId: loaded.serverId, name: loaded.summary.name });
    if (loaded.toolsGranted.length > 0) this.deps.grantTools(conversationId, loaded.serverId, loaded.toolsGranted);
    this.deps.onInUseChanged(conversationId);
  }

  /**
   * A file of a skill the conversation uses, read against the entry it was loaded from (a folder: the
   * listed files in it, from that entry). With `onServer`, a file of another server: the person is asked.
   */
  async readFile(request: { conversationId: string; serverId: string; skillUri: string; file: string; onServer?: string; signal?: AbortSignal }): Promise<SkillFileRead> {
    const { conversationId, serverId, file, signal } = request;
    const held = this.held(conversationId, serverId, request.skillUri);
    const summary = this.deps.registry.summary(serverId, held.entry, true);
    if (request.onServer !== undefined && request.onServer !== serverId) return this.readElsewhere(held, summary, request.onServer, file, conversationId, signal);
    if (file.endsWith('/')) {
      const folder = pathIn(held.uri, file).replace(/^\/+/, '');
      const paths = summary.files === 'dynamic' ? [] : summary.files.map((listed) => listed.path).filter((path) => path.startsWith(folder));
      return { kind: 'folder', folder, paths, skill: summary };
    }
    try {
      const read = await this.verified(serverId, held.entry, file, signal);
      return { kind: 'file', serverId, uri: read.uri, size: read.bytes.byteLength, fromSkill: true, skill: summary, ...(read.text !== undefined ? { text: read.text } : {}), ...(read.mimeType ? { mimeType: read.mimeType } : {}) };
    } catch (error) {
      if (!(error instanceof SkillFileRefused)) throw error;
      const fresh = await this.deps.registry.refreshEntry(serverId, held.uri, signal);
      if (fresh && !isUnchanged(changeSince(approvedFilesOf(held.entry), fresh))) {
        this.deps.inUse.drop(conversationId, serverId, held.uri);
        this.deps.onInUseChanged(conversationId);
        throw new SkillRefusal(`the skill “${summary.name}” of ${serverId} changed since it was loaded, so Atrium stopped using it in this conversation; load it again to use it as it is now (the person is asked again)`);
      }
      throw new SkillRefusal(`${file} was not read: ${verificationSentence(error, held.entry)}`);
    }
  }

  /** A skill's SKILL.md, verified, for the person to look at; it reaches no model and opens nothing. */
  async show(serverId: string, uri: string, signal?: AbortSignal): Promise<ShownSkill> {
    const { skill, summary } = await this.entry(serverId, uri, signal);
    const file = await this.verifiedForPerson(serverId, skill, undefined, signal);
    return { skill: summary, text: file.text ?? '' };
  }

  /** One listed file of a skill, verified, for the person to look at. */
  async showFile(serverId: string, uri: string, ref: string, signal?: AbortSignal): Promise<{ uri: string; text?: string; size: number; mimeType?: string }> {
    const { skill } = await this.entry(serverId, uri, signal);
    const file = await this.verifiedForPerson(serverId, skill, ref, signal);
    return { uri: file.uri, size: file.bytes.byteLength, ...(file.text !== undefined ? { text: file.text } : {}), ...(file.mimeType ? { mimeType: file.mimeType } : {}) };
  }

  /** The skills a conversation is using. */
  inUse(conversationId: string): SkillInUse[] {
    return this.deps.inUse.list(conversationId).map((held) => ({
      serverId: held.serverId,
      uri: held.uri,
      name: held.entry.frontmatter.name,
      since: held.since,
      files: held.entry.resources === 'dynamic' ? 0 : held.entry.resources.length,
    }));
  }

  /** The entry and its summary; a skill beyond the limits or without digests is refused here, before any read. */
  private async entry(serverId: string, uri: string, signal?: AbortSignal): Promise<{ skill: Skill; summary: SkillSummary }> {
    if (!this.deps.connectionOf(serverId)) throw new SkillRefusal(`${serverId} is not connected, so its skills cannot be used now`);
    let found: { skill: Skill; listed: boolean };
    try {
      found = await this.deps.registry.entry(serverId, uri, signal);
    } catch (error) {
      throw new SkillRefusal(`${serverId} serves no skill at ${uri} (${(error as Error).message})`);
    }
    const summary = this.deps.registry.summary(serverId, found.skill, found.listed);
    if (summary.refused) throw new SkillRefusal(`the skill “${summary.name}” of ${serverId} is not loaded: ${summary.refused}`);
    return { skill: found.skill, summary };
  }

  private held(conversationId: string, serverId: string, skillUri: string): HeldSkill {
    const held = this.deps.inUse.get(conversationId, serverId, skillUri) ?? this.deps.inUse.list(conversationId).find((candidate) => candidate.serverId === serverId && sameHref(candidate.uri, skillUri));
    if (!held) throw new SkillRefusal(`this conversation does not use the skill ${skillUri} of ${serverId}: load it with atrium_use_skill first`);
    return held;
  }

  private async readElsewhere(held: HeldSkill, summary: SkillSummary, onServer: string, file: string, conversationId: string, signal?: AbortSignal): Promise<SkillFileRead> {
    if (!isAbsolute(file)) throw new SkillRefusal(`to read a file on ${onServer}, give its whole URI`);
    if (!this.deps.connectionOf(onServer)) throw new SkillRefusal(`${onServer} is not connected`);
    const skill = { serverId: held.serverId, uri: held.uri, name: summary.name };
    const allowed = await this.deps.consent.toReadElsewhere({ skill, target: { serverId: onServer, uri: file }, conversationId, ...(signal ? { signal } : {}) });
    if (!allowed) throw new SkillRefusal(`the person did not allow the skill “${summary.name}” of ${held.serverId} to read ${file} on ${onServer}`);
    const [content] = (await this.deps.readResource(onServer, file, signal)).contents;
    this.deps.tookIn(conversationId, { kind: 'resource', serverId: onServer, name: file });
    const text = content && 'text' in content && typeof content.text === 'string' ? content.text : undefined;
    const size = text !== undefined ? Buffer.byteLength(text) : content && 'blob' in content && typeof content.blob === 'string' ? base64ByteCount(content.blob) : 0;
    return { kind: 'file', serverId: onServer, uri: file, size, fromSkill: false, skill: summary, ...(text !== undefined ? { text } : {}), ...(content?.mimeType ? { mimeType: content.mimeType } : {}) };
  }

  /** For the person: a file that does not match is said in a sentence, not thrown as the SDK's error. */
  private async verifiedForPerson(serverId: string, skill: Skill, ref: string | undefined, signal?: AbortSignal): Promise<{ uri: string; bytes: Uint8Array; text?: string; mimeType?: string }> {
    try {
      return await this.verified(serverId, skill, ref, signal);
    } catch (error) {
      if (error instanceof SkillFileRefused) throw new SkillRefusal(`${ref ?? 'SKILL.md'} of the skill “${skill.frontmatter.name}” of ${serverId} was not shown: ${verificationSentence(error, skill)}`);
      throw error;
    }
  }

  /** One file of `skill`, from the cache when its bytes still hash to the listed digest, else read and verified (and kept). */
  private async verified(serverId: string, skill: Skill, ref: string | undefined, signal?: AbortSignal): Promise<{ uri: string; bytes: Uint8Array; text?: string; mimeType?: string }> {
    const listed = listedFile(skill, ref);
    if (listed) {
      const bytes = await this.deps.cache.get(serverId, listed.uri, listed.digest);
      const manifest = sameHref(listed.uri, skill.uri);
      // A cached SKILL.md still has to have the frontmatter the entry says: the one verified with these bytes.
      if (bytes && bytes.byteLength === listed.size && (!manifest || sameFrontmatter(await this.deps.cache.getNote(serverId, listed.uri, listed.digest), skill.frontmatter))) {
        const text = textOf(bytes);
        return { uri: listed.uri, bytes, ...(text !== undefined ? { text } : {}) };
      }
    }
    const connection = this.deps.connectionOf(serverId);
    if (!connection) throw new SkillRefusal(`${serverId} is not connected`);
    const file = await connection.read(skill, ref, signal);
    const digest = skill.resources === 'dynamic' ? undefined : skill.resources.find((resource) => sameHref(resource.uri, file.uri))?.digest;
    if (file.verified && digest) await this.deps.cache.put(serverId, file.uri, digest, file.bytes, file.frontmatter);
    const text = file.text ?? textOf(file.bytes);
    return { uri: file.uri, bytes: file.bytes, ...(text !== undefined ? { text } : {}), ...(file.mimeType ? { mimeType: file.mimeType } : {}) };
  }
}

/** The listed file `ref` names (SKILL.md when none), by the URI it resolves to; undefined when it names none (the SDK then says why). */
function listedFile(skill: Skill, ref: string | undefined): { uri: string; digest: string; size: number } | undefined {
  if (skill.resources === 'dynamic') return undefined;
  let target: string;
  try {
    target = new URL(ref ?? 'SKILL.md', `${skill.uri.replace(/\/SKILL\.md$/, '')}/`).href;
  } catch {
    return undefined;
  }
  return skill.resources.find((resource) => sameHref(resource.uri, target));
}

/** Why a file was refused, for the person and the model. */
function verificationSentence(error: SkillFileRefused, skill: Skill): string {
  const path = pathIn(skill.uri, error.uri);
  switch (error.reason) {
    case 'unlisted':
      // Said after "was not read" or "was not shown": no second "so it is not read".
      return `${path} is not one of the files its server listed for it`;
    case 'size':
      return `${path} is not the size its server listed for it (${error.message}), so it is not used`;
    case 'digest':
      return `${path} does not match the digest its server listed for it, so it is not used`;
    case 'frontmatter':
      return `the frontmatter of ${path} differs from what its server listed (${error.differences.length > 0 ? error.differences.join('; ') : error.message}), so the skill is not used`;
  }
}

function textOf(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function isAbsolute(uri: string): boolean {
  try {
    new URL(uri);
    return true;
  } catch {
    return false;
  }
}

function sameHref(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}
