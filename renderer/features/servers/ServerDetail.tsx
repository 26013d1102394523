import { useState } from 'react';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { ServerGrantsPanel } from './ServerGrantsPanel.tsx';
import { ServerLogPanel } from './ServerLogPanel.tsx';
import { ServerToolsPanel } from './ServerToolsPanel.tsx';

type Tab = 'log' | 'tools' | 'permissions';
const tabs: { name: Tab; label: string }[] = [
  { name: 'log', label: 'Log' },
  { name: 'tools', label: 'Tools' },
  { name: 'permissions', label: 'Permissions' },
];

/** The selected server in depth: its log, its tools (on/off for the model), and the permissions given. */
export function ServerDetail({ server }: { server: ServerSnapshot }) {
  const [tab, setTab] = useState<Tab>('log');
  return (
    <section className="log-panel" aria-label={`Server ${server.id}`}>
      <div className="detail-tabs" role="tablist" aria-label={`${server.id} details`}>
        {tabs.map((entry) => (
          <button key={entry.name} type="button" role="tab" aria-selected={tab === entry.name} className="view-tab" aria-current={tab === entry.name ? 'page' : undefined} onClick={() => setTab(entry.name)}>
            {entry.label}
          </button>
        ))}
      </div>
      <div className="detail-body" role="tabpanel">
        {tab === 'log' ? <ServerLogPanel server={server} /> : tab === 'tools' ? <ServerToolsPanel server={server} /> : <ServerGrantsPanel server={server} />}
      </div>
    </section>
  );
}
