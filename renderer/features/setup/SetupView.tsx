import { useState } from 'react';
import type { SetupDiscovery } from '../../../shared/contract.ts';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../api/useHostQuery.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { StartServerDialog } from '../servers/ServerEditor.tsx';

/**
 * Getting started: what the person already has, offered, never taken silently. The servers of other
 * hosts' configs (each with its exact command line, imported only if ticked, trusted only if ticked),
 * a local model server, and the built-in sample server to try every feature at once.
 */
export function SetupView() {
  const api = useAtriumApi();
  const showView = useAtriumStore((state) => state.showView);
  const { data, error, reload } = useHostQuery(() => api.discoverSetup({}), 'setup');
  const [toStart, setToStart] = useState<ServerSnapshot | null>(null);
  const [done, setDone] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const act = async (action: () => Promise<string>) => {
    setProblem(null);
    try {
      const message = await action();
      setDone((all) => [...all, message]);
      await reload();
    } catch (failure) {
      setProblem(errorMessage(failure));
    }
  };

  return (
    <div className="setup panel-pad">
      <h2>Get started</h2>
      {!data && !error ? <p className="muted">Looking for what you already have…</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      {problem ? (
        <p className="consent-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {done.length > 0 ? (
        <ul className="setup-done" aria-label="Done">
          {done.map((line, index) => (
            <li key={index}>✓ {line}</li>
          ))}
        </ul>
      ) : null}
      {toStart ? (
        <StartServerDialog
          server={toStart}
          onDone={() => {
            setToStart(null);
            void reload();
          }}
        />
      ) : null}

      <section className="setup-section" aria-label="Sample server">
        <h3>Try everything with the sample server</h3>
        <p className="muted">A small notebook that ships with Atrium: tools of every kind (read-only to destructive), a resource, a template, a prompt, and a form. It keeps its notes in memory.</p>
        <button type="button" className="button button-primary" onClick={() => void api.addSampleServer({}).then(setToStart, (failure: unknown) => setProblem(errorMessage(failure)))}>
          Add the sample server
        </button>
      </section>

      {data?.modelServers.length ? (
        <section className="setup-section" aria-label="Local models">
          <h3>A model on this computer</h3>
          {data.modelServers.map((found) => (
            <p key={found.baseUrl} className="grant-row">
              <span>
                <strong>{found.name}</strong> at <span className="code-inline">{found.baseUrl}</span> with {found.models.length} model{found.models.length === 1 ? '' : 's'}
                {found.models.length ? (
                  <span className="muted">
                    {' '}
                    (<UntrustedText text={found.models.slice(0, 5).join(', ')} />)
                  </span>
                ) : null}
              </span>
              <button type="button" className="button" onClick={() => void act(async () => (await api.useModelServer({ baseUrl: found.baseUrl }), `${found.name} is now a provider`))}>
                Use {found.name}
              </button>
            </p>
          ))}
        </section>
      ) : null}

      {data?.configs.map((config) => (
        <ImportSection key={config.path} config={config} onImport={(servers) => void act(async () => {
          const imported = await api.importServers({ path: config.path, servers });
          return `Imported ${imported.map((s) => s.id).join(', ')} from ${config.app}`;
        })} />
      ))}

      {data && data.configs.length === 0 && data.modelServers.length === 0 ? (
        <p className="muted">No other MCP host’s config and no local model server were found on this computer. Add servers in the Servers view, and providers in providers.json.</p>
      ) : null}
      <p>
        <button type="button" className="button" onClick={() => showView('chat')}>
          Go to the chat
        </button>
      </p>
    </div>
  );
}

type Config = SetupDiscovery['configs'][number];

function ImportSection({ config, onImport }: { config: Config; onImport(servers: { id: string; trusted: boolean }[]): void }) {
  const [chosen, setChosen] = useState<Record<string, { take: boolean; trusted: boolean }>>(() => Object.fromEntries(config.servers.map((s) => [s.id, { take: true, trusted: false }])));
  const picked = config.servers.filter((s) => chosen[s.id]?.take).map((s) => ({ id: s.id, trusted: chosen[s.id]?.trusted === true }));
  return (
    <section className="setup-section" aria-label={`Servers from ${config.app}`}>
      <h3>
        {config.servers.length} server{config.servers.length === 1 ? '' : 's'} from {config.app}
      </h3>
      <p className="muted code-inline">{config.path}</p>
      <ul className="setup-servers">
        {config.servers.map((server) => (
          <li key={server.id}>
            <label className="consent-check">
              <input type="checkbox" checked={chosen[server.id]?.take === true} onChange={(event) => setChosen((c) => ({ ...c, [server.id]: { take: event.target.checked, trusted: c[server.id]?.trusted === true } }))} />
              Import <strong>{server.id}</strong>
            </label>
            <pre className="code-block" aria-label={`Command line of ${server.id}`}>
              <UntrustedText text={server.target} />
            </pre>
            <label className="consent-check">
              <input type="checkbox" checked={chosen[server.id]?.trusted === true} onChange={(event) => setChosen((c) => ({ ...c, [server.id]: { take: c[server.id]?.take === true, trusted: event.target.checked } }))} />
              Trust {server.id}’s tool annotations
            </label>
          </li>
        ))}
      </ul>
      {config.problems.map((message, index) => (
        <p key={index} className="muted">
          <UntrustedText text={message} />
        </p>
      ))}
      <button type="button" className="button button-primary" disabled={picked.length === 0} onClick={() => onImport(picked)}>
        Import and start {picked.length} server{picked.length === 1 ? '' : 's'}
      </button>
    </section>
  );
}
