import { useEffect, useState } from 'react';
import type { WorkspaceView } from '../../../shared/domain.ts';
import { asSentence } from '../../../shared/sentence.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { useActionProblem } from '../../ui/useActionProblem.ts';
import { FieldProblem } from '../../ui/FieldProblem.tsx';
import { ProblemAlert } from '../../ui/ProblemAlert.tsx';

/**
 * Workspaces and their folders (roots). The active workspace's folders are what servers may work in;
 * a change reaches them at once. A folder is typed as a path (the host checks that it exists) or, in
 * the desktop app, chosen with the system's folder picker.
 */
export function RootsView() {
  const api = useAtriumApi();
  // The store mirrors the workspaces (every change to them is announced with workspacesChanged).
  const workspaces: WorkspaceView[] = useAtriumStore((state) => state.workspaces) ?? [];
  // Opened, the host looks at the folders again: one deleted since is then marked missing (the change comes as an event).
  useEffect(() => {
    api.listWorkspaces({}).catch(() => undefined);
  }, [api]);
  const hostInfo = useAtriumStore((state) => state.hostInfo);
  const [shownId, setShownId] = useState<string | null>(null);
  const [path, setPath] = useState('');
  const [newName, setNewName] = useState('');
  const actionProblem = useActionProblem();
  // A folder typed that the host refused: said under the field, which keeps what was typed.
  const [folderProblem, setFolderProblem] = useState<string | null>(null);
  // So is a workspace name it refused (one taken, a folder typed as a name).
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const error = actionProblem.problem;

  const shown = workspaces.find((w) => w.id === shownId) ?? workspaces.find((w) => w.active);
  const act = async (action: () => Promise<unknown>): Promise<boolean> => {
    actionProblem.clear();
    try {
      await action();
      return true;
    } catch (failure) {
      actionProblem.fail(failure);
      return false;
    }
  };

  return (
    <div className="roots">
      <nav className="conversations" aria-label="Workspaces">
        <ul className="conversations-list">
          {workspaces.map((workspace) => (
            <li key={workspace.id} className={workspace.id === shown?.id ? 'conversation conversation-selected' : 'conversation'}>
              <button type="button" className="conversation-open" aria-current={workspace.id === shown?.id} onClick={() => setShownId(workspace.id)}>
                {workspace.name}
                {workspace.active ? <span className="chip chip-active">active</span> : null}
              </button>
            </li>
          ))}
        </ul>
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            const name = newName.trim();
            if (!name) return;
            setNameProblem(null);
            api.createWorkspace({ name }).then(
              () => setNewName(''),
              (failure: unknown) => setNameProblem(asSentence(errorMessage(failure))),
            );
          }}
        >
          <input
            className="conversations-search"
            aria-label="New workspace name"
            placeholder="New workspace"
            value={newName}
            {...(nameProblem ? { 'aria-invalid': true, 'aria-describedby': 'new-workspace-problem' } : {})}
            onChange={(event) => {
              setNewName(event.target.value);
              setNameProblem(null);
            }}
          />
          <button type="submit" className="button">
            Add
          </button>
          <FieldProblem id="new-workspace-problem" message={nameProblem ?? undefined} />
        </form>
      </nav>
      {shown ? (
        <section className="conversation-pane panel-pad" aria-label={`Workspace ${shown.name}`}>
          <header className="roots-head">
            <h2>{shown.name}</h2>
            {shown.active ? (
              <span className="muted">Active: servers see these folders.</span>
            ) : (
              <button type="button" className="button button-primary" onClick={() => void act(() => api.activateWorkspace({ workspaceId: shown.id }))}>
                Make active
              </button>
            )}
          </header>
          <ProblemAlert text={error} />
          <ul className="roots-list" aria-label={`Folders of ${shown.name}`}>
            {shown.roots.map((root) => (
              <li key={root.uri} className="grant-row">
                <span>
                  <strong>{root.name}</strong> <span className="muted code-inline">{root.uri}</span>
                  {shown.missingRoots?.includes(root.uri) ? <span className="secret-flag"> (missing: not sent to servers)</span> : null}
                </span>
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Remove ${root.name ?? root.uri}`}
                  onClick={() => void act(() => api.setWorkspaceRoots({ workspaceId: shown.id, roots: shown.roots.filter((r) => r.uri !== root.uri) }))}
                >
                  Remove
                </button>
              </li>
            ))}
            {shown.roots.length === 0 ? <li className="muted">No folders: servers that ask for roots get none.</li> : null}
          </ul>
          <form
            className="roots-add"
            onSubmit={(event) => {
              event.preventDefault();
              const folder = path.trim();
              setFolderProblem(null);
              if (!folder) return;
              api.setWorkspaceRoots({ workspaceId: shown.id, roots: [...shown.roots, { uri: folder }] }).then(
                () => setPath(''),
                (failure: unknown) => setFolderProblem(errorMessage(failure)),
              );
            }}
          >
            <label className="field">
              Add a folder (its full path)
              <input
                value={path}
                placeholder="/home/you/projects/app"
                onChange={(event) => setPath(event.target.value)}
                {...(folderProblem ? { 'aria-invalid': true, 'aria-describedby': 'add-folder-problem' } : {})}
              />
              <FieldProblem id="add-folder-problem" message={folderProblem ?? undefined} />
            </label>
            <button type="submit" className="button">
              Add folder
            </button>
            {hostInfo?.canPickFolders ? (
              <button
                type="button"
                className="button"
                onClick={() =>
                  void act(async () => {
                    // The host turns each path into its file:// root and drops one that is already there.
                    const chosen = await api.pickFolders({});
                    if (chosen.length > 0) await api.setWorkspaceRoots({ workspaceId: shown.id, roots: [...shown.roots, ...chosen.map((uri) => ({ uri }))] });
                  })
                }
              >
                Choose folder…
              </button>
            ) : null}
          </form>
          <p className="muted">
            Folders are checked to exist and sent to servers as file:// addresses; ~ is your home folder.
            {hostInfo && !hostInfo.canPickFolders ? ' The desktop app can also open the system’s folder picker.' : null}
          </p>
        </section>
      ) : null}
    </div>
  );
}
