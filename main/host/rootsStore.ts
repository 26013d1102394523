// The folders the person exposes to servers. Roots are canonical `file://` URIs of existing
// directories; servers that asked for roots are told of every change (notifications/roots/list_changed).

import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RootEntry } from '../../shared/domain.ts';

export class RootsError extends Error {}

export class RootsStore {
  private roots: RootEntry[] = [];
  private readonly listeners = new Set<(roots: RootEntry[]) => void>();

  list(): RootEntry[] {
    return this.roots.map((root) => ({ ...root }));
  }

  onChange(listener: (roots: RootEntry[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Replaces the roots; every entry must name an existing directory (a path or a file:// URI). */
  async set(entries: readonly RootEntry[]): Promise<RootEntry[]> {
    const canonical: RootEntry[] = [];
    for (const entry of entries) {
      const root = await canonicalRoot(entry);
      if (!canonical.some((r) => r.uri === root.uri)) canonical.push(root);
    }
    this.roots = canonical;
    for (const listener of [...this.listeners]) listener(this.list());
    return this.list();
  }
}

export async function canonicalRoot(entry: RootEntry): Promise<RootEntry> {
  let path: string;
  try {
    path = entry.uri.startsWith('file:') ? fileURLToPath(entry.uri) : withHomeFolder(entry.uri);
  } catch {
    throw new RootsError(`"${entry.uri}" is not a valid file URI`);
  }
  // A relative path would be read against wherever the host happens to run: never what the person meant.
  if (!isAbsolute(path)) {
    const example = process.platform === 'win32' ? 'C:\\Users\\you\\projects\\app' : '/home/you/projects/app';
    // Said as "folder", as the window's field and the CLI's --root help say it; "root" is the protocol's word.
    throw new RootsError(`the folder "${path}" must be a whole path: type it in full, for example ${example}`);
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new RootsError(`there is no folder "${path}"`);
  }
  if (!(await stat(real)).isDirectory()) throw new RootsError(`"${path}" is a file, not a folder`);
  return { uri: pathToFileURL(real).href, name: entry.name ?? basename(real) };
}

/** `~` and `~/…` typed in the window mean the person's home folder, as their shell reads them. */
function withHomeFolder(typed: string): string {
  if (typed === '~') return homedir();
  return /^~[\\/]/.test(typed) ? join(homedir(), typed.slice(2)) : typed;
}
