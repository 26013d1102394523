import { useState } from 'react';
import type { ComponentType } from 'react';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { Tabs } from '../../ui/Tabs.tsx';
import { ServerAboutPanel } from './ServerAboutPanel.tsx';
import { ServerGrantsPanel } from './ServerGrantsPanel.tsx';
import { ServerLogPanel } from './ServerLogPanel.tsx';
import { ServerToolsPanel } from './ServerToolsPanel.tsx';

type Tab = 'log' | 'tools' | 'permissions' | 'about';
const tabs: { name: Tab; label: string }[] = [
  { name: 'log', label: 'Log' },
  { name: 'tools', label: 'Tools' },
  { name: 'permissions', label: 'Permissions' },
  { name: 'about', label: 'About' },
];

const panels: Record<Tab, ComponentType<{ server: ServerSnapshot }>> = {
  log: ServerLogPanel,
  tools: ServerToolsPanel,
  permissions: ServerGrantsPanel,
  about: ServerAboutPanel,
};

/** The selected server in depth: its log, its tools (on/off for the model), the permissions given, and what it is. */
export function ServerDetail({ server }: { server: ServerSnapshot }) {
  const [tab, setTab] = useState<Tab>('log');
  const Panel = panels[tab];
  return (
    <section className="log-panel" aria-label={`Server ${server.id}`}>
      <Tabs<Tab> label={`${server.id} details`} tabs={tabs} selected={tab} onSelect={setTab}>
        <Panel server={server} />
      </Tabs>
    </section>
  );
}
