import { useCallback, useEffect, useRef, useState } from 'react';
import type { ToolSearchHit } from '../../../shared/domain.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { Switch } from '../../ui/Switch.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { loadedBecause } from './toolsInUseText.ts';
import { sliceMarked } from '../../../shared/serverText.ts';

/**
 * What the model has of the tools in this conversation: all of them, or — with many — a search and the
 * tools it has without searching, each with why (kept always loaded, found by a search, used earlier,
 * loaded by the person). The person can keep one always loaded, unload one, or find one and load it.
 */
export function ToolsInUse({ conversationId }: { conversationId: string | null }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // Closed (Escape, or its Close), the keyboard goes back to the button that opened it, not to the page.
  const close = useCallback(() => {
    setOpen(false);
    toggle.current?.focus();
  }, []);
  const inUse = useAtriumStore((state) => (state.toolsInUse?.conversationId === conversationId ? state.toolsInUse.tools : null));
  if (!inUse || inUse.offered === 0) return null;
  const label = inUse.searching ? `Tools: ${inUse.loaded.length} loaded of ${inUse.offered}` : `Tools: all ${inUse.offered}`;
  return (
    <div className="tools-in-use">
      <button ref={toggle} type="button" className="button button-small" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label}
      </button>
      {open ? <ToolsInUsePanel conversationId={conversationId} onClose={close} /> : null}
    </div>
  );
}

function ToolsInUsePanel({ conversationId, onClose }: { conversationId: string | null; onClose(): void }) {
  const api = useAtriumApi();
  const inUse = useAtriumStore((state) => (state.toolsInUse?.conversationId === conversationId ? state.toolsInUse.tools : null));
  const catalogs = useAtriumStore((state) => state.catalogs);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<ToolSearchHit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Escape closes it, as it closes the window's other panels.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  if (!inUse) return null;
  const act = (done: Promise<unknown>) => {
    setError(null);
    done.catch((failure: unknown) => setError(errorMessage(failure)));
  };
  const loadedNames = new Set(inUse.loaded.map((tool) => tool.modelName));
  const alwaysLoaded = (serverId: string, tool: string) => catalogs[serverId]?.tools?.find((t) => t.name === tool)?.alwaysLoaded === true;
  return (
    <section className="tools-in-use-panel" aria-label="Tools the model has">
      <div className="tools-in-use-head">
        <p>
          {inUse.searching ? (
            <>
              <UntrustedText text={inUse.searching} />: the model searches for the tools it needs. It has these without searching:
            </>
          ) : (
            `The model gets all ${inUse.offered} tools with every message. With more than the count set in Settings (or tools that would take more than the share of its context set there), it searches for them instead.`
          )}
        </p>
        <button type="button" className="button button-small" onClick={onClose}>
          Close
        </button>
      </div>
      {inUse.searching ? (
        <>
          {inUse.loaded.length === 0 ? <p className="muted">None yet: the model loads what it finds.</p> : null}
          <ul className="tools-in-use-list" aria-label="Loaded tools">
            {inUse.loaded.map((tool) => (
              <li key={tool.modelName} className="tools-in-use-row">
                <span>
                  <UntrustedText text={tool.serverId} /> / <UntrustedText text={tool.tool} /> <span className="muted">· {loadedBecause(tool.how)}</span>
                </span>
                <span className="row-actions">
                  <Switch
                    checked={alwaysLoaded(tool.serverId, tool.tool)}
                    label={`${tool.serverId}/${tool.tool} always loaded`}
                    onChange={(on) => act(api.setToolAlwaysLoaded({ serverId: tool.serverId, tool: tool.tool, alwaysLoaded: on }))}
                  >
                    Always
                  </Switch>
                  {conversationId && tool.how.kind !== 'always' ? (
                    <button type="button" className="button button-small" aria-label={`Unload ${tool.serverId}/${tool.tool}`} onClick={() => act(unload(tool.modelName))}>
                      Unload
                    </button>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
          <form
            className="tools-in-use-find"
            onSubmit={(event) => {
              event.preventDefault();
              if (query.trim() === '') return;
              act(api.searchTools({ query: query.trim(), limit: 8 }).then(setFound));
            }}
          >
            <label>
              Find a tool to load <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder="what it does, e.g. create issue" />
            </label>
            <button type="submit" className="button button-small">
              Find
            </button>
          </form>
          {found ? (
            found.length === 0 ? (
              <p className="muted">No tool matches that.</p>
            ) : (
              <ul className="tools-in-use-list" aria-label="Tools found">
                {found.map(({ tool }) => (
                  <li key={tool.modelName} className="tools-in-use-row">
                    <span>
                      <UntrustedText text={tool.serverId} /> / <UntrustedText text={tool.name} />
                      {tool.description ? (
                        <span className="muted">
                          {' '}
                          · <UntrustedText text={sliceMarked(tool.description, 120)} />
                        </span>
                      ) : null}
                    </span>
                    {loadedNames.has(tool.modelName) ? (
                      <span className="muted">loaded</span>
                    ) : conversationId ? (
                      <button type="button" className="button button-small" aria-label={`Load ${tool.serverId}/${tool.name}`} onClick={() => act(load(tool.modelName))}>
                        Load
                      </button>
                    ) : (
                      <span className="muted">send a first message to load it here</span>
                    )}
                  </li>
                ))}
              </ul>
            )
          ) : null}
        </>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );

  // The host says the list changed (toolsLoadedChanged) and the store reads it again: one place loads it.
  function load(modelName: string) {
    return api.setToolLoaded({ conversationId: conversationId ?? '', modelName, loaded: true });
  }
  function unload(modelName: string) {
    return api.setToolLoaded({ conversationId: conversationId ?? '', modelName, loaded: false });
  }
}
