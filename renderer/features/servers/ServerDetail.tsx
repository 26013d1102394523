import type { ComponentType } from 'react';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import type { ServerTab } from '../../store/selectionSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { Tabs } from '../../ui/Tabs.tsx';
import { ServerAboutPanel } from './ServerAboutPanel.tsx';
import { ServerGrantsPanel } from './ServerGrantsPanel.tsx';
import { ServerLogPanel } from './ServerLogPanel.tsx';
import { ServerSignInPanel } from './ServerSignInPanel.tsx';
import { ServerToolsPanel } from './ServerToolsPanel.tsx';
import { ServerTracePanel } from './ServerTracePanel.tsx';
import { SkillsPanel } from '../../../main/mcp/extensions/skills/window/SkillsPanel.tsx';

const everyServersTabs: { name: ServerTab; label: string }[] = [
  { name: 'log', label: 'Log' },
  { name: 'trace', label: 'Trace' },
  { name: 'tools', label: 'Tools' },
  { name: 'permissions', label: 'Permissions' },
  { name: 'about', label: 'About' },
];
// Only a remote server can ask Atrium to sign in; a program on this computer never does.
const remoteServersTabs = [...everyServersTabs, { name: 'sign-in' as const, label: 'Sign-in' }];

const panels: Record<ServerTab, ComponentType<{ server: ServerSnapshot }>> = {
  log: ServerLogPanel,
  trace: ServerTracePanel,
  tools: ServerToolsPanel,
  skills: SkillsPanel,
  permissions: ServerGrantsPanel,
  about: ServerAboutPanel,
  'sign-in': ServerSignInPanel,
};

/** The selected server in depth: its log, its trace, its tools (on/off for the model), the permissions given, what it is, and its sign-in. */
export function ServerDetail({ server }: { server: ServerSnapshot }) {
  const chosen = useAtriumStore((state) => state.selectedServerTab);
  const selectTab = useAtriumStore((state) => state.selectServerTab);
  // Skills: a tab for a server that offers them.
  const offersSkills = useAtriumStore((state) => state.skills[server.id]?.offered === true);
  const kinds = server.transport === 'stdio' ? everyServersTabs : remoteServersTabs;
  const tabs = offersSkills ? [...kinds.slice(0, 2), { name: 'skills' as const, label: 'Skills' }, ...kinds.slice(2)] : kinds;
  const tab = tabs.some((t) => t.name === chosen) ? chosen : 'log';
  const Panel = panels[tab];
  return (
    <section className="log-panel" aria-label={`Server ${server.id}`}>
      <Tabs<ServerTab> label={`${server.id} details`} tabs={tabs} selected={tab} onSelect={selectTab}>
        <Panel server={server} />
      </Tabs>
    </section>
  );
}
