// What Atrium reads from a skill's entry (its server's listing, never its files): the files with their
// paths, the limits every host must accept (512 files, 16 MiB) and what lies beyond them, the tools its
// `allowed-tools` asks for, what changed since an approval, and the summary the person and the model see.

import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { SkillApproval, SkillChange, SkillFileView, SkillSummary } from '../contract/skillViews.ts';
import type { ApprovedFile, StoredSkillApproval } from '../store/skillApprovalStore.ts';

/**
 * What every host must accept of one skill (SEP-2640): 512 files, 16 MiB in all. The SDK's SKILL_LIMITS
 * say the same (a test holds them equal); kept here so that a host with no server loads no SDK.
 */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** The skill's folder: its SKILL.md URI without `/SKILL.md`. */
export function rootOf(uri: string): string {
  return uri.replace(/\/SKILL\.md$/, '');
}

/** A file's path in its skill, or its URI when it lies elsewhere. */
export function pathIn(skillUri: string, fileUri: string): string {
  const root = `${rootOf(skillUri)}/`;
  if (!fileUri.startsWith(root)) return fileUri;
  const path = fileUri.slice(root.length);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Every listed file, SKILL.md first, then by path. */
export function filesOf(skill: Skill): SkillFileView[] | 'dynamic' {
  if (skill.resources === 'dynamic') return 'dynamic';
  const files = skill.resources.map((resource) => ({ uri: resource.uri, path: pathIn(skill.uri, resource.uri), size: resource.size, digest: resource.digest }));
  const manifest = new URL(skill.uri).href;
  const isManifest = (file: SkillFileView) => safeHref(file.uri) === manifest;
  return [...files.filter(isManifest), ...files.filter((file) => !isManifest(file)).sort((a, b) => a.path.localeCompare(b.path))];
}

export function totalBytes(skill: Skill): number {
  return skill.resources === 'dynamic' ? 0 : skill.resources.reduce((sum, resource) => sum + resource.size, 0);
}

/** Why Atrium will not load this skill, from its entry alone, before any file is read; undefined when it may. */
export function refusalOf(skill: Skill): string | undefined {
  if (skill.resources === 'dynamic') return 'its server makes its files on demand and lists no digests, so what it sends cannot be checked: Atrium does not load such skills';
  const files = skill.resources.length;
  if (files > SKILL_LIMITS.files) return `it has ${files.toLocaleString('en')} files; Atrium loads skills of up to ${SKILL_LIMITS.files} files`;
  const bytes = totalBytes(skill);
  if (bytes > SKILL_LIMITS.bytes) return `its files come to ${bytes.toLocaleString('en')} bytes; Atrium loads skills of up to ${SKILL_LIMITS.bytes.toLocaleString('en')} bytes (16 MiB)`;
  return undefined;
}

/** The tools its frontmatter's `allowed-tools` names: a space-separated list, or a list. */
export function allowedToolsOf(skill: Skill): string[] {
  const value = skill.frontmatter['allowed-tools'];
  if (typeof value === 'string') return value.split(/\s+/).filter((name) => name.length > 0);
  if (Array.isArray(value)) return value.filter((name): name is string => typeof name === 'string' && name.length > 0);
  return [];
}

/** The files an approval binds to: every URI with its digest (none for a skill without a list). */
export function approvedFilesOf(skill: Skill): ApprovedFile[] {
  return skill.resources === 'dynamic' ? [] : skill.resources.map(({ uri, digest }) => ({ uri: safeHref(uri), digest }));
}

/** What differs between the files approved and the files listed now; empty lists when none. */
export function changeSince(approved: readonly ApprovedFile[], skill: Skill): SkillChange {
  const now = new Map(approvedFilesOf(skill).map((file) => [file.uri, file.digest]));
  const before = new Map(approved.map((file) => [safeHref(file.uri), file.digest]));
  const path = (uri: string) => pathIn(skill.uri, uri);
  return {
    added: [...now.keys()].filter((uri) => !before.has(uri)).map(path).sort(),
    removed: [...before.keys()].filter((uri) => !now.has(uri)).map(path).sort(),
    changed: [...now].filter(([uri, digest]) => before.has(uri) && before.get(uri) !== digest).map(([uri]) => path(uri)).sort(),
  };
}

export function isUnchanged(change: SkillChange): boolean {
  return change.added.length === 0 && change.removed.length === 0 && change.changed.length === 0;
}

/** Whether an approval holds for the skill as listed now: not revoked, and exactly the same files and digests. */
export function approvalHolds(approval: StoredSkillApproval | undefined, skill: Skill): boolean {
  return approval !== undefined && approval.revokedAt === undefined && skill.resources !== 'dynamic' && isUnchanged(changeSince(approval.files, skill));
}

export function approvalState(approval: StoredSkillApproval | undefined, skill: Skill): SkillApproval {
  if (approval === undefined) return { kind: 'not-asked' };
  if (approvalHolds(approval, skill)) return { kind: 'approved', since: approval.approvedAt, toolsGranted: approval.toolsGranted };
  return { kind: 'changed', since: approval.approvedAt, change: changeSince(approval.files, skill) };
}

export function summarize(serverId: string, skill: Skill, approval: StoredSkillApproval | undefined, listed: boolean): SkillSummary {
  const refused = refusalOf(skill);
  return {
    serverId,
    uri: skill.uri,
    name: skill.frontmatter.name,
    description: skill.frontmatter.description,
    files: filesOf(skill),
    totalBytes: totalBytes(skill),
    allowedTools: allowedToolsOf(skill),
    ...(refused ? { refused } : {}),
    approval: approvalState(approval, skill),
    listed,
  };
}

/** Field by field, whatever the order of an object's keys: how a SKILL.md's frontmatter is compared with its entry's. */
export function sameFrontmatter(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameFrontmatter(item, b[index]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameFrontmatter((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}

function safeHref(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}
