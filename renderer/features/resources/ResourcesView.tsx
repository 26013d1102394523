import { useEffect, useMemo, useRef, useState } from 'react';
import type { ResourceTemplateSummary } from '../../../shared/domain.ts';
import { catalogErrorKey } from '../../store/catalogSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ResourcePreview } from './ResourcePreview.tsx';
import { TemplateForm } from './TemplateForm.tsx';
import { shownText } from '../../../shared/visibleText.ts';
import { MarkdownReferences, siblingResource } from '../../ui/markdownReferences.ts';

const PAGE = 50;

/** A server's resources and templates: search, page through, read, subscribe, attach to the next message. */
export function ResourcesView() {
  const servers = useAtriumStore((state) => state.servers);
  const withResources = servers.filter((s) => s.status.kind === 'ready' && (s.capabilities?.resources !== undefined || (s.counts?.resources ?? 0) > 0));
  // Opened from a tool result's resource link: that server and that resource.
  const [request] = useState(() => useAtriumStore.getState().takeResourceRequest());
  const [serverId, setServerId] = useState<string | null>(request?.serverId ?? null);
  const current = serverId ?? withResources[0]?.id ?? null;
  const catalog = useAtriumStore((state) => (current ? state.catalogs[current] : undefined));
  const error = useAtriumStore((state) =>
    current ? (state.catalogErrors[catalogErrorKey(current, 'resources')] ?? state.catalogErrors[catalogErrorKey(current, 'resourceTemplates')] ?? null) : null,
  );
  const resources = useMemo(() => catalog?.resources ?? [], [catalog]);
  const templates = catalog?.resourceTemplates ?? [];
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState(PAGE);
  const [open, setOpen] = useState<{ uri: string; name: string } | null>(request ? { uri: request.uri, name: request.uri } : null);
  const [template, setTemplate] = useState<ResourceTemplateSummary | null>(null);
  const firstServer = useRef(current);
  useEffect(() => {
    // Switching server closes what was open; the first render keeps a resource opened from a link.
    if (firstServer.current !== current) {
      setOpen(null);
      setTemplate(null);
      setShown(PAGE);
      firstServer.current = current;
    }
  }, [current]);

  const matching = useMemo(() => {
    const wanted = query.trim().toLowerCase();
    return wanted ? resources.filter((r) => `${r.name} ${r.title ?? ''} ${r.uri}`.toLowerCase().includes(wanted)) : resources;
  }, [resources, query]);

  if (withResources.length === 0) return <EmptyState title="No resources">No ready server offers resources.</EmptyState>;

  return (
    <div className="resources">
      <nav className="conversations conversations-own-scroll" aria-label="Resources">
        <h2 className="visually-hidden">Resources</h2>
        <label className="field">
          Server
          <select value={current ?? ''} onChange={(event) => setServerId(event.target.value)}>
            {withResources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id}
              </option>
            ))}
          </select>
        </label>
        <input className="conversations-search" type="search" aria-label="Search resources" placeholder="Search" value={query} onChange={(event) => setQuery(event.target.value)} />
        {error ? <p role="alert">{error}</p> : null}
        <div className="sidebar-scroll">
          <ul className="conversations-list" aria-label={`Resources of ${current ?? ''}`}>
            {matching.slice(0, shown).map((resource) => (
              <li key={resource.uri} className={open?.uri === resource.uri ? 'conversation conversation-selected' : 'conversation'}>
                <button
                  type="button"
                  className="conversation-open"
                  aria-current={open?.uri === resource.uri}
                  title={shownText(resource.uri)}
                  onClick={() => {
                    setTemplate(null);
                    setOpen({ uri: resource.uri, name: resource.title ?? resource.name });
                  }}
                >
                  <UntrustedText text={resource.title ?? resource.name} />
                </button>
              </li>
            ))}
          </ul>
          {matching.length > shown ? (
            <button type="button" className="button" onClick={() => setShown((n) => n + PAGE)}>
              Show {Math.min(PAGE, matching.length - shown)} more of {matching.length - shown}
            </button>
          ) : null}
          {templates.length > 0 ? (
            <>
              <h3 className="consent-subtitle">Templates</h3>
              <ul className="conversations-list" aria-label={`Resource templates of ${current ?? ''}`}>
                {templates.map((t) => (
                  <li key={t.uriTemplate} className={template?.uriTemplate === t.uriTemplate ? 'conversation conversation-selected' : 'conversation'}>
                    <button
                      type="button"
                      className="conversation-open"
                      title={t.uriTemplate}
                      onClick={() => {
                        setOpen(null);
                        setTemplate(t);
                      }}
                    >
                      <UntrustedText text={t.title ?? t.name} />
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      </nav>
      <section className="conversation-pane panel-pad" aria-label="Resource">
        {current && template ? (
          <TemplateForm
            key={template.uriTemplate}
            serverId={current}
            template={template}
            // The form stays above what it opened, its values kept: a value the server refuses is corrected there.
            onOpen={(uri) => setOpen({ uri, name: uri })}
          />
        ) : null}
        {current && open ? (
          // A link in the resource that names another of the server's resources (`structure.md`) opens it.
          <MarkdownReferences.Provider
            value={(reference) => {
              const sibling = siblingResource(open.uri, reference, resources);
              if (!sibling) return undefined;
              return () => {
                setTemplate(null);
                setOpen({ uri: sibling.uri, name: sibling.title ?? sibling.name });
              };
            }}
          >
            <ResourcePreview key={`${current} ${open.uri}`} serverId={current} uri={open.uri} name={open.name} />
          </MarkdownReferences.Provider>
        ) : null}
        {!open && !template ? <EmptyState title="Choose a resource">Its contents appear here.</EmptyState> : null}
      </section>
    </div>
  );
}
