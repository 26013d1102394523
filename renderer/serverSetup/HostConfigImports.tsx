import { useState } from 'react';
import type { SetupDiscovery } from '../../shared/contract.ts';
import { useAtriumApi } from '../api/useAtriumApi.ts';
import type { ActionLog } from '../ui/ActionReport.tsx';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { OfferedServerRow } from './OfferedServerRow.tsx';

type HostConfig = SetupDiscovery['configs'][number];
type Choice = { id: string; trusted: boolean };

/**
 * The servers of other hosts' configs (Claude Desktop, VS Code, Cursor), offered, never taken silently:
 * each with its exact command line, imported only if ticked, trusted only if ticked. One Atrium already
 * runs is shown as such and not offered again.
 */
export function HostConfigImports({ configs, log }: { configs: readonly HostConfig[]; log: ActionLog }) {
  const api = useAtriumApi();
  return configs.map((config) => (
    <ConfigChoice
      key={config.path}
      config={config}
      onImport={(servers) =>
        void log.run(async () => {
          const imported = await api.importServers({ path: config.path, servers });
          return imported.length > 0 ? `Imported ${imported.map((s) => s.id).join(', ')} from ${config.app}` : `Nothing new to import from ${config.app}`;
        })
      }
    />
  ));
}

function ConfigChoice({ config, onImport }: { config: HostConfig; onImport(servers: Choice[]): void }) {
  const [chosen, setChosen] = useState<Record<string, { take: boolean; trusted: boolean }>>(() => Object.fromEntries(config.servers.map((s) => [s.id, { take: true, trusted: false }])));
  const choose = (id: string, change: Partial<{ take: boolean; trusted: boolean }>) =>
    setChosen((all) => ({ ...all, [id]: { take: all[id]?.take === true, trusted: all[id]?.trusted === true, ...change } }));
  const picked = config.servers.filter((s) => !s.alreadyAs && chosen[s.id]?.take).map((s) => ({ id: s.id, trusted: chosen[s.id]?.trusted === true }));
  return (
    <section className="setup-section" aria-label={`Servers from ${config.app}`}>
      <h3>
        {config.servers.length} server{config.servers.length === 1 ? '' : 's'} from {config.app}
      </h3>
      <p className="muted code-inline">{config.path}</p>
      <ul className="setup-servers">
        {config.servers.map((server) => (
          <OfferedServerRow key={server.id} server={server} verb="Import" taken={chosen[server.id]?.take === true} onTake={(take) => choose(server.id, { take })}>
            <label className="consent-check">
              <input type="checkbox" checked={chosen[server.id]?.trusted === true} onChange={(event) => choose(server.id, { trusted: event.target.checked })} />
              Trust {server.id}’s tool annotations
            </label>
          </OfferedServerRow>
        ))}
      </ul>
      {config.problems.map((message, index) => (
        <p key={index} className="muted">
          <UntrustedText text={message} />
        </p>
      ))}
      {config.servers.every((s) => s.alreadyAs) ? (
        <p className="muted">Every server here is already in Atrium.</p>
      ) : (
        <button type="button" className="button button-primary" disabled={picked.length === 0} onClick={() => onImport(picked)}>
          {picked.length === 0 ? 'Nothing ticked to import' : `Import and start ${picked.length} server${picked.length === 1 ? '' : 's'}`}
        </button>
      )}
    </section>
  );
}
