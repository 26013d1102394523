import { useShallow } from 'zustand/react/shallow';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { Banner } from '../../ui/Banner.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { ServerCard } from './ServerCard.tsx';
import { ServerDetail } from './ServerDetail.tsx';

/** Every configured server with its live state, and the log of the one selected. */
export function ServersView() {
  const servers = useAtriumStore((state) => state.servers);
  const loaded = useAtriumStore((state) => state.serversLoaded);
  const selectedId = useAtriumStore((state) => state.selectedServerId);
  const selectServer = useAtriumStore((state) => state.selectServer);
  const problems = useAtriumStore(
    useShallow((state) => state.configProblems.map((p) => `${p.serverId ? `${p.serverId}: ` : ''}${p.field}: ${p.message}`)),
  );
  const selected = servers.find((server) => server.id === selectedId);

  return (
    <div className="servers">
      <section className="servers-list" aria-label="Servers">
        {problems.length > 0 ? (
          <Banner tone="warning">
            <p className="banner-title">The servers file has problems; the other servers still run.</p>
            <ul>
              {problems.map((problem, index) => (
                <li key={index}>{problem}</li>
              ))}
            </ul>
          </Banner>
        ) : null}
        {loaded && servers.length === 0 ? (
          <EmptyState title="No MCP servers configured">Add servers to servers.json in Atrium’s folder, then restart Atrium.</EmptyState>
        ) : (
          <ul className="cards" aria-label="Configured servers">
            {servers.map((server) => (
              <li key={server.id}>
                <ServerCard server={server} selected={server.id === selectedId} onSelect={() => selectServer(server.id)} />
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
