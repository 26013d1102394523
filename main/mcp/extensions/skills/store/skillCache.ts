// Skills: the verified files of servers' skills, kept on disk so a file read once is not fetched again
// while its digest stays the same. It lives in Atrium's data folder only (private to this user), is
// written by Atrium alone, one file per server, URI and digest, never changed in place (written aside and
// moved in), and every file served from it is hashed again and compared with the digest it must have. A
// server's folder is named after the server, so the same URI of two servers lands in two places; it goes
// when the server is removed. Nothing here is a skill Atrium would run: it is what a server sent, kept.

import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SKILL_CACHE_FOLDER = 'skill-cache';

const digestOf = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export class SkillCache {
  private readonly root: string;

  /** `home` is Atrium's data folder. */
  constructor(home: string) {
    this.root = join(home, SKILL_CACHE_FOLDER);
  }

  /** The folder of one server's files: its name encoded so that no name leaves the cache (".." included). */
  serverFolder(serverId: string): string {
    return join(this.root, encodeURIComponent(serverId).replaceAll('.', '%2E'));
  }

  /** The bytes kept for this file with this digest, hashed again now; undefined when none (or they no longer match, then they are removed). */
  async get(serverId: string, uri: string, digest: string): Promise<Uint8Array | undefined> {
    const path = this.pathOf(serverId, uri, digest);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(path));
    } catch {
      return undefined;
    }
    if (digestOf(bytes) === digest) return bytes;
    await unlink(path).catch(() => undefined);
    return undefined;
  }

  /** What was kept beside a file (a SKILL.md's frontmatter as verified), or undefined. */
  async getNote(serverId: string, uri: string, digest: string): Promise<unknown> {
    try {
      return JSON.parse(await readFile(`${this.pathOf(serverId, uri, digest)}.json`, 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  /** Keeps verified bytes (and a note beside them); a failure to write only means the next read fetches them again. */
  async put(serverId: string, uri: string, digest: string, bytes: Uint8Array, note?: unknown): Promise<void> {
    if (digestOf(bytes) !== digest) return;
    const path = this.pathOf(serverId, uri, digest);
    try {
      await mkdir(this.serverFolder(serverId), { recursive: true, mode: 0o700 });
      if (note !== undefined) await this.writeAside(`${path}.json`, JSON.stringify(note));
      await this.writeAside(path, bytes);
    } catch {
      // A full disk or a folder made read-only: the cache is an optimisation, the read itself succeeded.
    }
  }

  /** Everything kept for a server, as when the person removes it. */
  async forgetServer(serverId: string): Promise<void> {
    await rm(this.serverFolder(serverId), { recursive: true, force: true });
  }

  private pathOf(serverId: string, uri: string, digest: string): string {
    const uriHash = createHash('sha256').update(uri).digest('hex');
    return join(this.serverFolder(serverId), `${uriHash}-${digest.replace(/^sha256:/, '')}`);
  }

  private async writeAside(path: string, data: Uint8Array | string): Promise<void> {
    const aside = `${path}.${randomUUID()}.part`;
    await writeFile(aside, data, { mode: 0o600, flag: 'wx' });
    await rename(aside, path);
  }
}
