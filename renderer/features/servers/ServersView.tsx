import { useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ServerSnapshot, StoredServerEntry } from '../../../shared/domain.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { Banner } from '../../ui/Banner.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ImportServersDialog } from './ImportServersDialog.tsx';
import { ServerCard } from './ServerCard.tsx';
import { ServerDetail } from './ServerDetail.tsx';
import { ServerEditor } from './ServerEditor.tsx';
import { StartServerDialog } from '../../serverSetup/StartServerDialog.tsx';
import { RegistryDialog } from '../../serverSetup/RegistryDialog.tsx';
import { BundleDialog } from '../../serverSetup/BundleDialog.tsx';

/**
 * Every configured server with its live state, the detail of the one selected, and adding more: by hand,
 * from the registry, from a bundle, or imported. An installed server's start dialog follows by itself.
 */
export function ServersView() {
  const servers = useAtriumStore((state) => state.servers);
  const loaded = useAtriumStore((state) => state.serversLoaded);
  const selectedId = useAtriumStore((state) => state.selectedServerId);
  const selectServer = useAtriumStore((state) => state.selectServer);
  // Each problem's sentence names its server and field already, in the words of the file.
  const problems = useAtriumStore(useShallow((state) => state.configProblems.map((p) => p.message)));
  // The file to open, in the words of the damaged-file banner: hand edits are taken up as soon as it is saved.
  const problemFiles = useAtriumStore(useShallow((state) => [...new Set(state.configProblems.flatMap((p) => (p.file ? [p.file] : [])))]));
  const selected = servers.find((server) => server.id === selectedId);
  const [editor, setEditor] = useState<{ id: string; entry: StoredServerEntry } | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  const [bundle, setBundle] = useState<File | null>(null);
  const bundleInput = useRef<HTMLInputElement>(null);
  // Servers just added from a pasted config, each waiting for the person's start approval in turn.
  const [toStart, setToStart] = useState<ServerSnapshot[]>([]);

  return (
    <div className="servers">
      <section className="servers-list" aria-label="Servers">
        {/* The view's heading, for a screen reader's list of headings; each card's name is one below it. */}
        <h2 className="visually-hidden">Servers</h2>
        <div className="servers-actions">
          <button type="button" className="button" onClick={() => setImporting(true)}>
            Import…
          </button>
          <button type="button" className="button" onClick={() => setBrowsing(true)}>
            From the registry…
          </button>
          <button type="button" className="button" onClick={() => bundleInput.current?.click()}>
            Open a bundle…
          </button>
          <input
            ref={bundleInput}
            type="file"
            accept=".mcpb,application/zip"
            hidden
            aria-label="Open a bundle…"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) setBundle(file);
            }}
          />
          <button type="button" className="button button-primary" onClick={() => setEditor('new')}>
            Add server
          </button>
        </div>
        {editor ? <ServerEditor editing={editor === 'new' ? null : editor} onDone={() => setEditor(null)} /> : null}
        {importing ? (
          <ImportServersDialog
            onDone={() => setImporting(false)}
            onPasted={(added) => {
              setImporting(false);
              setToStart(added);
            }}
          />
        ) : null}
        {browsing ? <RegistryDialog onDone={() => setBrowsing(false)} /> : null}
        {bundle ? <BundleDialog file={bundle} onDone={() => setBundle(null)} /> : null}
        {toStart[0] ? <StartServerDialog key={toStart[0].id} server={toStart[0]} onDone={() => setToStart((queue) => queue.slice(1))} /> : null}
        {problems.length > 0 ? (
          <Banner tone="warning">
            <p className="banner-title">The servers file has problems{servers.length > 0 ? '; the other servers still run' : ''}.</p>
            <ul>
              {problems.map((problem, index) => (
                <li key={index}>{problem}</li>
              ))}
            </ul>
            {problemFiles.map((file) => (
              <p key={file}>
                Fix it in {file}: Atrium reads it again as soon as it is saved.
              </p>
            ))}
          </Banner>
        ) : null}
        {loaded && servers.length === 0 && problems.length > 0 ? (
          // Entries there are, none readable: "none configured" would send the person to add them again.
          <EmptyState title="No server in the servers file could be read">Fix the entries named above: Atrium reads the file again as soon as it is saved.</EmptyState>
        ) : loaded && servers.length === 0 ? (
          <EmptyState title="No MCP servers configured">Add one with “Add server”, or bring in those of Claude Desktop, VS Code or Cursor with “Import…”.</EmptyState>
        ) : (
          <ul className="cards" aria-label="Configured servers">
            {servers.map((server) => (
              <li key={server.id}>
                <ServerCard server={server} selected={server.id === selectedId} onSelect={() => selectServer(server.id)} onEdit={(entry) => setEditor({ id: server.id, entry })} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {selected ? (
        <ServerDetail key={selected.id} server={selected} />
      ) : (
        <section className="log-panel log-panel-empty" aria-label="Server log">
          <EmptyState title="Select a server">Its log appears here.</EmptyState>
        </section>
      )}
    </div>
  );
}
