import { useState } from 'react';
import type { ServerSnapshot, StoredServerEntry } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { FieldProblem, FormProblemsSummary } from '../../ui/FieldProblem.tsx';
import { useFormProblems } from '../../ui/useFormProblems.ts';
import { ConsentDialog } from '../../ui/ConsentDialog.tsx';
import { StartServerDialog } from '../../serverSetup/StartServerDialog.tsx';
import { SERVER_FORM_LABELS as L } from '../../../shared/serverFormLabels.ts';
import type { Draft, Kind } from './serverDraft.ts';
import { draftOf, emptyDraft as empty, entryOf, formFields, splitCommandField } from './serverDraft.ts';

interface ServerEditorProps {
  /** The server being edited and its stored entry; null adds a new one. */
  editing: { id: string; entry: StoredServerEntry } | null;
  onDone(): void;
}

/**
 * Adds or edits a server. The host checks the entry; a server that is new, or whose command line changed,
 * comes back disabled and the person is shown exactly what will run before it starts.
 */
export function ServerEditor({ editing, onDone }: ServerEditorProps) {
  const api = useAtriumApi();
  const [draft, setDraft] = useState<Draft>(() => (editing ? draftOf(editing.id, editing.entry) : empty));
  const { problems, report, clear, formRef, describe, messageFor } = useFormProblems(formFields, 'server-editor');
  const [toStart, setToStart] = useState<ServerSnapshot | null>(null);
  // A whole command line typed into Command is split into the command and its arguments, and the form
  // says so, with a way back for a command whose path really has spaces in it.
  const [split, setSplit] = useState<{ before: Draft; command: string; moved: number } | null>(null);
  const [keptWhole, setKeptWhole] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const splitCommand = (current: Draft): Draft => {
    if (current.kind !== 'stdio' || current.command === keptWhole) return current;
    const made = splitCommandField(current);
    if (!made) return current;
    setSplit({ before: current, command: made.command, moved: made.moved });
    setDraft(made.draft);
    return made.draft;
  };
  const keepWhole = () => {
    if (!split) return;
    setDraft(split.before);
    setKeptWhole(split.before.command);
    setSplit(null);
  };

  const save = async () => {
    clear();
    try {
      const entry = entryOf(splitCommand(draft), editing?.entry ?? null);
      const saved = await api.saveServer({ serverId: draft.name.trim(), entry, ...(editing ? { replaces: editing.id } : {}) });
      if (saved.status.kind === 'disabled' && entry['disabled'] !== true) setToStart(saved);
      else onDone();
    } catch (failure) {
      // The draft stays as typed; each problem shows under its field.
      report(failure);
    }
  };
  const problemUnder = (key: (typeof formFields)[number]) => <FieldProblem {...messageFor(key)} />;

  if (toStart) return <StartServerDialog server={toStart} onDone={() => onDone()} />;

  return (
    <ConsentDialog title={editing ? `Edit ${editing.id}` : 'Add a server'} from="An MCP server Atrium starts (a command) or connects to (an address)." onDismiss={onDone}>
      <form
        ref={formRef}
        className="consent-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label className="field">
          {L.serverId}
          <input value={draft.name} onChange={(event) => set('name', event.target.value)} {...describe('serverId')} />
        </label>
        {problemUnder('serverId')}
        <label className="field">
          Kind
          <select value={draft.kind} onChange={(event) => set('kind', event.target.value as Kind)}>
            <option value="stdio">A command on this computer (stdio)</option>
            <option value="http">A remote server (Streamable HTTP)</option>
            <option value="sse">A remote server (legacy HTTP+SSE)</option>
          </select>
        </label>
        {draft.kind === 'stdio' ? (
          <>
            <label className="field">
              {L.command}
              <input
                value={draft.command}
                placeholder="npx — its arguments go in Arguments, below"
                onChange={(event) => {
                  set('command', event.target.value);
                  setSplit(null);
                }}
                onBlur={() => splitCommand(draft)}
                {...describe('entry.command')}
              />
            </label>
            {problemUnder('entry.command')}
            {split ? (
              <p className="field-note" role="status">
                <span>
                  Split into the command <code>{split.command}</code> and {split.moved === 1 ? 'one argument' : `${split.moved} arguments`}, now first in Arguments below.
                </span>
                <button type="button" className="button button-small" onClick={keepWhole}>
                  Keep it as one command
                </button>
              </p>
            ) : null}
            <label className="field">
              {L.args} (one per line)
              <textarea rows={3} value={draft.args} onChange={(event) => set('args', event.target.value)} {...describe('entry.args')} />
            </label>
            {problemUnder('entry.args')}
            <label className="field">
              {L.env} (NAME=value, one per line)
              <textarea rows={2} value={draft.env} onChange={(event) => set('env', event.target.value)} {...describe('entry.env')} />
            </label>
            {problemUnder('entry.env')}
            <label className="field">
              {L.cwd}
              <input value={draft.cwd} onChange={(event) => set('cwd', event.target.value)} {...describe('entry.cwd')} />
            </label>
            {problemUnder('entry.cwd')}
          </>
        ) : (
          <>
            <label className="field">
              {L.url}
              <input value={draft.url} placeholder="https://example.com/mcp" onChange={(event) => set('url', event.target.value)} {...describe('entry.url')} />
            </label>
            {problemUnder('entry.url')}
            <label className="field">
              {L.headers} (Name: value, one per line)
              <textarea rows={2} value={draft.headers} onChange={(event) => set('headers', event.target.value)} {...describe('entry.headers')} />
            </label>
            {problemUnder('entry.headers')}
          </>
        )}
        <label className="consent-check">
          <input type="checkbox" checked={draft.trusted} onChange={(event) => set('trusted', event.target.checked)} />
          Trust this server: believe what its tools say about themselves (read-only, destructive…)
        </label>
        <FormProblemsSummary problems={problems} notDone="Not saved" />
        <div className="consent-actions">
          <button type="submit" className="button button-primary">
            Save
          </button>
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </ConsentDialog>
  );
}
