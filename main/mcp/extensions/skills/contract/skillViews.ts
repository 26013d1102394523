// The Skills extension's types both sides share: a skill as the person and the model see it before any of
// its files is read (everything here comes from the server's listing, never from its files), where the
// person stands on it, what changed since they approved it, and the questions a skill puts to the person.
// Every text in them came from a server: untrusted, shown as text.

import type { FromSchema } from 'json-schema-to-ts';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The tools Atrium gives the model for skills: use one (asks the person once), read one of its files. */
export const USE_SKILL_TOOL = 'atrium_use_skill';
export const READ_SKILL_FILE_TOOL = 'atrium_read_skill_file';

/** What a call of one of the skill tools did, in a sentence for the conversation; undefined for any other tool. */
export function skillToolSentence(name: string, input: Record<string, unknown>): string | undefined {
  const text = (key: string) => (typeof input[key] === 'string' ? input[key] : '');
  // A skill's name is the last folder of its SKILL.md's URI.
  const skillName = (uri: string) => /([^/]+)\/SKILL\.md$/.exec(uri)?.[1] ?? uri;
  if (name === USE_SKILL_TOOL) return `Asked to use the skill “${skillName(text('uri'))}” of ${text('server')}`;
  if (name === READ_SKILL_FILE_TOOL) {
    const elsewhere = text('on_server');
    return `Asked to read ${text('file')}${elsewhere ? ` on ${elsewhere}` : ''} for the skill “${skillName(text('skill'))}” of ${text('server')}`;
  }
  return undefined;
}

/** A skill is named by the server Atrium knows it by and its SKILL.md's URI: two servers' same URI are two skills. */
export interface SkillRef {
  serverId: string;
  uri: string;
}

/** One file of a skill as its server lists it: what every read of it is checked against. */
export interface SkillFileView {
  uri: string;
  /** Its path in the skill (`references/FORMS.md`), or its URI when it lies elsewhere. */
  path: string;
  size: number;
  /** `sha256:` and 64 hex digits. */
  digest: string;
}

/** What changed in a skill since the person approved it, by path. */
export interface SkillChange {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Where the person stands on a skill: never asked, approved for exactly its files now, or approved for files it no longer has. */
export type SkillApproval =
  | { kind: 'not-asked' }
  | { kind: 'approved'; since: number; toolsGranted: string[] }
  /** Revoked: a file was added, removed or changed since. The next use asks again, showing this. */
  | { kind: 'changed'; since: number; change: SkillChange };

export interface SkillSummary extends SkillRef {
  name: string;
  description: string;
  /** Every file of the skill, SKILL.md first; 'dynamic' when its server generates them (no digests to check). */
  files: SkillFileView[] | 'dynamic';
  totalBytes: number;
  /** What its frontmatter's `allowed-tools` asks for, as written: granted only if the person approves that too. */
  allowedTools: string[];
  /** Set when another skill (of this server or another) has the same name: the window and the model tell them apart by server and URI. */
  sharedName?: true;
  /** Why Atrium will not load it, said before any of its files is read (too many files, too large, generated on demand). */
  refused?: string;
  approval: SkillApproval;
  /** Listed by its server (false: found by its URI alone, `skills/get`). */
  listed: boolean;
}

/** The skills of one server as Atrium last listed them, or why they could not be listed. */
export interface ServerSkillList {
  serverId: string;
  /** False when the server does not offer skills. */
  offered: boolean;
  skills: SkillSummary[];
  /** Entries of its listing Atrium refused (a broken entry), each with why. */
  refusedEntries: { uri?: string; reason: string }[];
  /** Why the listing failed; the skills shown are the last ones listed. */
  error?: string;
}

/** A skill loaded into a conversation: its SKILL.md is in the model's context and its listed files can be read. */
export interface SkillInUse extends SkillRef {
  name: string;
  since: number;
  files: number;
}

/** A skill's SKILL.md, read and verified for the person to inspect (not given to the model). */
export interface ShownSkill {
  skill: SkillSummary;
  text: string;
}

/** A tool its `allowed-tools` names, and the tool of its own server it would let run without asking (none: it grants nothing here). */
export interface AskedTool {
  asked: string;
  tool?: string;
}

/** What a skill asks of the person: to be used, or (while one is in use) to read a file on another server. */
export type SkillQuestion =
  | {
      question: 'use';
      skill: SkillSummary;
      /** Who wants it: the model, or the person who picked it. */
      by: 'model' | 'person';
      /** Set when the person approved an earlier version: what changed. */
      change?: SkillChange;
      askedTools: AskedTool[];
    }
  | {
      question: 'read-elsewhere';
      /** The skill in use that drives the read. */
      skill: SkillRef & { name: string };
      /** The file asked for, on another server. */
      target: SkillRef;
    };

export const skillAnswerSchema = {
  type: 'object',
  required: ['effect'],
  properties: {
    effect: { enum: ['allow', 'deny'] },
    /** With a use: also let the tools its `allowed-tools` names run without asking, in conversations that use it. */
    grantTools: { type: 'boolean' },
  },
  additionalProperties: false,
} as const;

export type SkillAnswer = FromSchema<typeof skillAnswerSchema>;
