// A server's skills, read on its connection's live session through the SDK's SkillsClient (SEP-2640): the
// listing (every page), one entry by its SKILL.md URI, and one file read and checked against an entry
// (listed in it, its size, its digest and, for SKILL.md, its frontmatter field by field). What to read and
// when, and what the person agreed to, are the host's (extensions/skills/host/); this part only reads,
// and says in the server's log what it read and what a check refused.

import type { InvalidSkillEntry, Skill, SkillCacheScope, SkillFile, SkillVerificationReason } from '@modelcontextprotocol/client/ext/skills';
import type { Client } from '@modelcontextprotocol/client';
import type { ServerLog } from '../../serverLog.ts';

export type { Skill, SkillFile };

/** A file that failed a check against its skill's entry (the SDK's SkillVerificationError): not used. */
export class SkillFileRefused extends Error {
  readonly reason: SkillVerificationReason;
  readonly uri: string;
  /** For `frontmatter`: one line per field that differs. */
  readonly differences: readonly string[];

  constructor(reason: SkillVerificationReason, uri: string, message: string, differences: readonly string[]) {
    super(message);
    this.reason = reason;
    this.uri = uri;
    this.differences = differences;
  }
}

/** The SDK's skills client, loaded with the first request about skills: a host with no server loads no SDK. */
const skillsSdk = () => import('@modelcontextprotocol/client/ext/skills');

/** What this part needs of a connection (McpConnection has it). */
export interface SkillsOnConnection {
  readonly id: string;
  readonly log: Pick<ServerLog, 'add'>;
  extensionRequest<T>(what: string, signal: AbortSignal | undefined, run: (client: Client, options: { timeout: number; signal?: AbortSignal }) => Promise<T>): Promise<T>;
}

export interface SkillListingRead {
  skills: Skill[];
  /** Entries refused as broken (each named, with why); the rest are listed. */
  invalid: InvalidSkillEntry[];
  ttlMs?: number;
  cacheScope?: SkillCacheScope;
}

export interface ConnectionSkills {
  /** Whether the server declared the extension. */
  offered(): Promise<boolean>;
  /** Every page of the server's listing; a server without the extension lists none. */
  list(signal?: AbortSignal): Promise<SkillListingRead>;
  /** The entry of the skill whose SKILL.md is at `uri`, listed or not (`skills/get`). */
  get(uri: string, signal?: AbortSignal): Promise<{ skill: Skill; ttlMs?: number }>;
  /** One file of `skill` (`ref` relative to its root, or its URI), read and verified; throws SkillFileRefused. */
  read(skill: Skill, ref: string | undefined, signal?: AbortSignal): Promise<SkillFile>;
}

export function connectionSkills(connection: SkillsOnConnection): ConnectionSkills {
  // One SkillsClient per request: it holds nothing but the session's client, which a restart replaces.
  const skillsOf = async (client: Client) => new (await skillsSdk()).SkillsClient(client, { skipInvalid: true });
  return {
    offered: () => connection.extensionRequest('skills', undefined, async (client) => (await skillsOf(client)).supported),
    list: async (signal) => {
      const listing = await connection.extensionRequest('skills/list', signal, async (client, options) => (await skillsOf(client)).list({}, options));
      for (const entry of listing.invalid) connection.log.add('warning', 'host', `skills/list: refused the entry ${entry.uri ?? `#${entry.index}`}: ${entry.reason}`);
      return {
        skills: listing.skills,
        invalid: listing.invalid,
        ...(listing.ttlMs !== undefined ? { ttlMs: listing.ttlMs } : {}),
        ...(listing.cacheScope !== undefined ? { cacheScope: listing.cacheScope } : {}),
      };
    },
    get: async (uri, signal) => {
      const { skill, ttlMs } = await connection.extensionRequest(`skills/get ${uri}`, signal, async (client, options) => (await skillsOf(client)).get(uri, options));
      return { skill, ...(ttlMs !== undefined ? { ttlMs } : {}) };
    },
    read: async (skill, ref, signal) => {
      const { SkillVerificationError } = await skillsSdk();
      try {
        // Atrium keeps its own cache of verified files (extensions/skills/store/): the SDK's is bypassed. A
        // file that fails a check is the answer, not a failure of the connection: it comes back as it is.
        const read = await connection.extensionRequest(`skill file ${ref ?? skill.uri}`, signal, async (client, options) => {
          try {
            return { file: await (await skillsOf(client)).read(skill, ref, { ...options, cacheMode: 'bypass' }) };
          } catch (error) {
            if (error instanceof SkillVerificationError) return { refused: new SkillFileRefused(error.reason, error.uri, error.message, error.differences) };
            throw error;
          }
        });
        if ('refused' in read) throw read.refused;
        const { file } = read;
        connection.log.add('info', 'host', `read ${file.uri} of the skill ${skill.uri}: ${file.bytes.byteLength} bytes, size and digest${file.frontmatter ? ' and frontmatter' : ''} as listed`);
        return file;
      } catch (error) {
        if (error instanceof SkillFileRefused) connection.log.add('warning', 'host', `refused ${error.uri} of the skill ${skill.uri}: ${error.message}`);
        throw error;
      }
    },
  };
}
