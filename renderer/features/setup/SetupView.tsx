import { useState } from 'react';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../api/useHostQuery.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { ActionReport, useActionLog } from '../../ui/ActionReport.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { HostConfigImports } from '../servers/HostConfigImports.tsx';
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
  const log = useActionLog(reload);

  return (
    <div className="setup panel-pad">
      <h2>Get started</h2>
      {!data && !error ? <p className="muted">Looking for what you already have…</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <ActionReport log={log} />
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
        <button type="button" className="button button-primary" onClick={() => void api.addSampleServer({}).then(setToStart, log.fail)}>
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
              <button type="button" className="button" onClick={() => void log.run(async () => (await api.useModelServer({ baseUrl: found.baseUrl }), `${found.name} is now a provider`))}>
                Use {found.name}
              </button>
            </p>
          ))}
        </section>
      ) : null}

      {data ? <HostConfigImports configs={data.configs} log={log} /> : null}

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
