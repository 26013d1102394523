// Roots per workspace. The person keeps several workspaces (a project, a client, a scratch folder),
// each with its own roots; the active one's roots are what every server that asked for roots sees, and
// switching workspace or changing its roots sends them `notifications/roots/list_changed` (through the
// RootsStore). A stored folder that has since disappeared is left out and reported, not fatal.

import { ChangeListeners } from '../changeListeners.ts';
import type { RootEntry, WorkspaceView } from '../../shared/domain.ts';
import type { StoredWorkspace, WorkspaceStore } from '../store/workspaceStore.ts';
import type { RootsStore } from './rootsStore.ts';
import { canonicalRoot, RootsError } from './rootsStore.ts';

export class WorkspaceNotFoundError extends Error {
  readonly code = 'not_found';
}

export class WorkspaceError extends Error {
  readonly code = 'invalid_params';
}

export const DEFAULT_WORKSPACE = 'Default';

export class Workspaces {
  private readonly store: WorkspaceStore;
  private readonly roots: RootsStore;
  /** Folders given for this run only (the CLI's --root): added to the active workspace's, never stored. */
  private extraRoots: RootEntry[];
  private missing: string[] = [];
  private readonly changes = new ChangeListeners<WorkspaceView[]>();

  constructor(store: WorkspaceStore, roots: RootsStore, extraRoots: readonly RootEntry[] = []) {
    this.store = store;
    this.roots = roots;
    this.extraRoots = [...extraRoots];
  }

  /** Activates the named workspace (made if new), else the stored active one, else a Default one. */
  async start(name?: string): Promise<void> {
    // Folders named for this run must exist now: a typo is an error, not a silently missing root.
    this.extraRoots = await canonicalRoots(this.extraRoots);
    let workspace = name !== undefined ? (this.store.byName(name) ?? this.store.create(checkedName(name), [])) : this.store.active();
    workspace ??= this.store.byName(DEFAULT_WORKSPACE) ?? this.store.create(DEFAULT_WORKSPACE, []);
    if (!workspace.active) this.store.activate(workspace.id);
    await this.apply(workspace);
  }

  list(): WorkspaceView[] {
    return this.store.list().map((w) => this.view(w));
  }

  /**
   * Looks again at the active workspace's folders: one deleted (or put back) since they were last given
   * to servers is reported, and the servers get the folders there are now. Cheap (a stat a folder), so
   * it is done each time the workspaces are looked at.
   */
  async recheck(): Promise<void> {
    const workspace = this.store.active();
    if (!workspace) return;
    const { present, missing } = await this.foldersOf(workspace);
    if (missing.join('\n') === this.missing.join('\n')) return;
    this.missing = missing;
    await this.roots.set(present);
    this.announced(this.view(workspace));
  }

  active(): WorkspaceView {
    const workspace = this.store.active();
    if (!workspace) throw new WorkspaceNotFoundError('no workspace is active');
    return this.view(workspace);
  }

  async create(name: string, roots: readonly RootEntry[] = []): Promise<WorkspaceView> {
    const clash = this.store.byName(checkedName(name));
    if (clash) throw new WorkspaceError(`there is already a workspace called "${clash.name}"`);
    return this.announced(this.view(this.store.create(name, await canonicalRoots(roots))));
  }

  async setRoots(id: string, roots: readonly RootEntry[]): Promise<WorkspaceView> {
    const workspace = this.require(id);
    this.store.setRoots(id, await canonicalRoots(roots));
    const updated = this.require(id);
    if (workspace.active) await this.apply(updated);
    return this.announced(this.view(updated));
  }

  async activate(id: string): Promise<WorkspaceView> {
    this.require(id);
    this.store.activate(id);
    const workspace = this.require(id);
    await this.apply(workspace);
    return this.announced(this.view(workspace));
  }

  rename(id: string, name: string): WorkspaceView {
    this.require(id);
    const clash = this.store.byName(checkedName(name));
    if (clash && clash.id !== id) throw new WorkspaceError(`there is already a workspace called "${clash.name}"`);
    this.store.rename(id, name);
    return this.announced(this.view(this.require(id)));
  }

  delete(id: string): void {
    const workspace = this.require(id);
    if (workspace.active) throw new WorkspaceError(`"${workspace.name}" is the active workspace; switch to another before deleting it`);
    this.store.delete(id);
    this.announced(undefined);
  }

  /** Told with every workspace as it is now, after each change. */
  onChange(listener: (workspaces: WorkspaceView[]) => void): () => void {
    return this.changes.add(listener);
  }

  private announced<T>(value: T): T {
    this.changes.tell(this.list());
    return value;
  }

  private require(id: string): StoredWorkspace {
    const workspace = this.store.get(id);
    if (!workspace) throw new WorkspaceNotFoundError(`there is no workspace "${id}"`);
    return workspace;
  }

  private view(workspace: StoredWorkspace): WorkspaceView {
    return { ...workspace, ...(workspace.active && this.missing.length > 0 ? { missingRoots: [...this.missing] } : {}) };
  }

  private async apply(workspace: StoredWorkspace): Promise<void> {
    const { present, missing } = await this.foldersOf(workspace);
    this.missing = missing;
    await this.roots.set(present);
  }

  /** The workspace's folders (and this run's) that are there now, and those that are not. */
  private async foldersOf(workspace: StoredWorkspace): Promise<{ present: RootEntry[]; missing: string[] }> {
    const present: RootEntry[] = [];
    const missing: string[] = [];
    for (const root of [...workspace.roots, ...this.extraRoots]) {
      try {
        present.push(await canonicalRoot(root));
      } catch (error) {
        if (!(error instanceof RootsError)) throw error;
        missing.push(root.uri);
      }
    }
    return { present, missing };
  }
}

async function canonicalRoots(roots: readonly RootEntry[]): Promise<RootEntry[]> {
  const canonical: RootEntry[] = [];
  for (const root of roots) {
    try {
      const entry = await canonicalRoot(root);
      if (!canonical.some((r) => r.uri === entry.uri)) canonical.push(entry);
    } catch (error) {
      if (error instanceof RootsError) throw new WorkspaceError(error.message);
      throw error;
    }
  }
  return canonical;
}

function checkedName(name: string): string {
  if (name.trim() === '' || name.length > 100) throw new WorkspaceError('a workspace name is 1 to 100 characters');
  // A path typed into the name's field (the folder field is beside it) would make a workspace with no folder.
  if (/^(\/|~(\/|$)|\.\.?\/|[A-Za-z]:[\\/])/.test(name.trim())) {
    const last = name.trim().split(/[\\/]/).filter((part) => part !== '' && part !== '~' && part !== '.' && part !== '..').at(-1);
    throw new WorkspaceError(`"${name}" is a folder, not a name: give the workspace a name${last ? ` (such as "${last}")` : ''}, then add the folder to it`);
  }
  return name;
}
