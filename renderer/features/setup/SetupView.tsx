import { useState } from 'react';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../store/useHostQuery.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { ActionReport, useActionLog } from '../../ui/ActionReport.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { HostConfigImports } from '../../serverSetup/HostConfigImports.tsx';
import { PasteServerConfig } from '../../serverSetup/PasteServerConfig.tsx';
import { StartServerDialog } from '../../serverSetup/StartServerDialog.tsx';
import { SetupProgress } from './SetupProgress.tsx';

/** A server just added, waiting for the person's start approval, and what to say once they answered. */
interface ToStart {
  server: ServerSnapshot;
  done(started: boolean): string;
}

/**
 * Getting started: what is set up and the next step, then what the person already has, offered, never
 * taken silently: the built-in sample server, a server's JSON pasted or read from a file, the servers
 * of other hosts' configs (each with its exact command line, imported only if ticked, trusted only if
 * ticked), a local model server.
 */
export function SetupView() {
  const api = useAtriumApi();
  const { data, error, reload } = useHostQuery(() => api.discoverSetup({}), 'setup');
  const settings = useAtriumStore((state) => state.settings);
  const showServerTab = useAtriumStore((state) => state.showServerTab);
  const [toStart, setToStart] = useState<ToStart[]>([]);
  const log = useActionLog(reload);
  const current = toStart[0];

  const addSample = () =>
    void api.addSampleServer({}).then(({ server, added }) => {
      if (added) {
        setToStart([{ server, done: (started) => `Added the sample server as ${server.id}, trusted, ${started ? 'and started it' : 'off until you start it'}` }]);
        return;
      }
      void log.run(async () => `The sample server is already in Atrium, as ${server.id}`);
      // Kept off earlier: this is the moment to start it.
      if (server.status.kind === 'disabled') setToStart([{ server, done: (started) => (started ? `Started ${server.id}` : `${server.id} stays off`) }]);
    }, log.fail);

  return (
    <div className="setup panel-pad">
      <h2>Get started</h2>
      <SetupProgress providers={settings?.providers ?? null} />
      {error ? <p role="alert">{error}</p> : null}
      <ActionReport log={log} />
      {current ? (
        <StartServerDialog
          key={current.server.id}
          server={current.server}
          onDone={(started) => {
            setToStart((queue) => queue.slice(1));
            void log.run(async () => current.done(started));
          }}
        />
      ) : null}

      <section className="setup-section" aria-label="Sample server">
        <h3>Try everything with the sample server</h3>
        <p className="muted">
          A small notebook that ships with Atrium: tools of every kind (read-only to destructive), a resource, a template, a prompt, and a form. It keeps its notes in memory. Being Atrium’s own, it is added trusted: what its tools declare (read-only, destructive) is believed when Atrium decides what to ask you.
        </p>
        {/* Once it is there, the way is to it, not to adding it again. */}
        {data?.sampleServerId ? (
          <p className="setup-present">
            ✓ In Atrium as <UntrustedText text={data.sampleServerId} />{' '}
            <button type="button" className="button" onClick={() => showServerTab(data.sampleServerId ?? '', 'log')}>
              Show it
            </button>
          </p>
        ) : (
          <button type="button" className="button button-primary" onClick={addSample}>
            Add the sample server
          </button>
        )}
      </section>

      <PasteServerConfig
        onAdded={(added) => {
          if (added.length === 0) void log.run(async () => 'Nothing new to add: every server there is already in Atrium');
          setToStart((queue) => [...queue, ...added.map((server) => ({ server, done: (started: boolean) => (started ? `Added ${server.id} and started it` : `Added ${server.id}, off until you start it`) }))]);
        }}
      />

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
              <button
                type="button"
                className="button"
                onClick={() =>
                  void log.run(async () => {
                    await api.useModelServer({ baseUrl: found.baseUrl });
                    return `${found.name} is now a provider`;
                  })
                }
              >
                Use {found.name}
              </button>
            </p>
          ))}
        </section>
      ) : null}

      {data ? <HostConfigImports configs={data.configs} log={log} /> : null}
      {!data && !error ? <p className="muted">Looking for other apps’ MCP configs and a model server on this computer…</p> : null}
      {data && data.configs.length === 0 ? <p className="muted">No MCP config of Claude Desktop, VS Code or Cursor was found on this computer.</p> : null}
    </div>
  );
}
