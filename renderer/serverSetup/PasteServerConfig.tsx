import { useId, useRef, useState } from 'react';
import type { ServerConfigPreview } from '../../shared/contract.ts';
import type { ServerSnapshot } from '../../shared/domain.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import { useAtriumApi } from '../api/useAtriumApi.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { OfferedServerRow } from './OfferedServerRow.tsx';

/**
 * A server's JSON as its README gives it (a whole config, VS Code's, one named entry or a bare one),
 * pasted or read from a file the person chose: the servers it holds are shown with their exact command
 * lines before anything is added, and what is added is untrusted and off until the person starts it.
 * The text is only ever read here and sent to the host; the window never names a file for the host to read.
 */
export function PasteServerConfig({ onAdded }: { onAdded(servers: ServerSnapshot[]): void }) {
  const api = useAtriumApi();
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<ServerConfigPreview | null>(null);
  const [chosen, setChosen] = useState<Record<string, boolean>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const textId = useId();

  const show = async (value: string) => {
    setProblem(null);
    try {
      const found = await api.previewServerConfig({ text: value });
      setPreview(found);
      setChosen(Object.fromEntries(found.servers.map((s) => [s.id, true])));
    } catch (failure) {
      setPreview(null);
      setProblem(errorMessage(failure));
    }
  };
  const offered = preview?.servers.filter((s) => !s.alreadyAs) ?? [];
  const picked = offered.filter((s) => chosen[s.id]).map((s) => s.id);
  const error = problem ?? preview?.error ?? null;

  return (
    <section className="setup-section" aria-label="Paste a server’s config">
      <h3>Paste a server’s config, or choose a file</h3>
      <p className="muted">
        The JSON block from a server’s README or another app: <span className="code-inline">{'{"mcpServers": …}'}</span>, VS Code’s <span className="code-inline">{'{"servers": …}'}</span>, or one entry such as{' '}
        <span className="code-inline">{'"name": {"command": …}'}</span>. You see each server’s command line before anything is added.
      </p>
      <div className="field">
        <label htmlFor={textId}>Server config (JSON)</label>
        <textarea
          id={textId}
          className="paste-config"
          rows={8}
          spellCheck={false}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setPreview(null);
            setProblem(null);
          }}
        />
      </div>
      {error ? (
        <p id={errorId} className="consent-problem" role="alert">
          <UntrustedText text={error} />
        </p>
      ) : null}
      <div className="setup-actions">
        <button type="button" className="button" onClick={() => void show(text)}>
          Preview
        </button>
        <button type="button" className="button" onClick={() => fileInput.current?.click()}>
          Choose a file…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json,text/plain"
          hidden
          aria-label="Choose a file…"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            void file.text().then((content) => {
              setText(content);
              return show(content);
            }, (failure: unknown) => setProblem(`${file.name} could not be read: ${errorMessage(failure)}`));
          }}
        />
      </div>
      {preview && !preview.error ? (
        <>
          <ul className="setup-servers" aria-label="Servers found">
            {preview.servers.map((server) => (
              <OfferedServerRow key={server.id} server={server} verb="Add" taken={chosen[server.id] === true} onTake={(take) => setChosen((all) => ({ ...all, [server.id]: take }))} />
            ))}
          </ul>
          {preview.problems.map((message, index) => (
            <p key={index} className="consent-problem">
              <UntrustedText text={message} />
            </p>
          ))}
          {offered.length > 0 ? (
            <button
              type="button"
              className="button button-primary"
              disabled={picked.length === 0}
              onClick={() =>
                void api.addPastedServers({ text, servers: picked }).then(
                  (added) => {
                    setPreview(null);
                    onAdded(added);
                  },
                  (failure: unknown) => setProblem(errorMessage(failure)),
                )
              }
            >
              {picked.length === 0 ? 'Nothing ticked to add' : `Add ${picked.length} server${picked.length === 1 ? '' : 's'}`}
            </button>
          ) : null}
          <p className="muted">Added servers are not trusted: every tool call asks first. Each one starts once you have approved its command line.</p>
        </>
      ) : null}
    </section>
  );
}
