import { useCallback, useState } from 'react';
import { ChatView } from './features/chat/ChatView.tsx';
import { DataFileProblems } from './features/dataFiles/DataFileProblems.tsx';
import { PendingRequests } from './features/consent/PendingRequests.tsx';
import { ResourcesView } from './features/resources/ResourcesView.tsx';
import { RootsView } from './features/roots/RootsView.tsx';
import { SettingsView } from './features/settings/SettingsView.tsx';
import { SetupView } from './features/setup/SetupView.tsx';
import { ServersView } from './features/servers/ServersView.tsx';
import { LaunchApprovalRequests } from './features/servers/LaunchApprovalRequests.tsx';
import { shortcutsHelpShortcut } from './ui/appShortcuts.ts';
import { ShortcutsHelp } from './features/shortcuts/ShortcutsHelp.tsx';
import { useAppShortcuts } from './features/shortcuts/useAppShortcuts.ts';
import type { ViewName } from './store/viewSlice.ts';
import { useAtriumStore } from './store/useAtriumStore.ts';
import { Banner } from './ui/Banner.tsx';
import { TasksButton, TasksPanel } from '../main/mcp/extensions/tasks/window/TasksPanel.tsx';
import { LinkConfirmations } from './ui/LinkConfirmation.tsx';
import { shortcutLabel } from './ui/shortcuts.ts';
import { useNoStrayFileDrops } from './ui/strayFileDrops.ts';
import { useWindowTitle } from './ui/windowTitle.ts';
import { madeWithPointer } from './ui/pointerClick.ts';

const linkText = { connecting: 'Connecting', open: 'Connected', reconnecting: 'Reconnecting', 'no-token': 'Not connected', 'bad-token': 'Not connected' } as const;
const views: { name: ViewName; label: string }[] = [
  { name: 'chat', label: 'Chat' },
  { name: 'resources', label: 'Resources' },
  { name: 'roots', label: 'Roots' },
  { name: 'servers', label: 'Servers' },
  { name: 'settings', label: 'Settings' },
  { name: 'setup', label: 'Get started' },
];

export function App() {
  const link = useAtriumStore((state) => state.link);
  const loadError = useAtriumStore((state) => state.loadError);
  const view = useAtriumStore((state) => state.view);
  const showView = useAtriumStore((state) => state.showView);
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  const [helpOpen, setHelpOpen] = useState(false);
  const showHelp = useCallback(() => setHelpOpen(true), []);
  useAppShortcuts(showHelp);
  useNoStrayFileDrops();
  useWindowTitle(views.find((entry) => entry.name === view)?.label ?? '');
  return (
    <div className="app">
      {/* The first stop of the keyboard: past the views and the conversations, to where the next thing is typed (as Ctrl+L). */}
      <button
        type="button"
        className="skip-link"
        onClick={() => {
          showView('chat');
          requestComposerFocus();
        }}
      >
        Skip to the message box
      </button>
      <header className="topbar">
        <h1 className="brand">Atrium</h1>
        <nav className="views" aria-label="Views">
          {views.map((entry) => (
            <button
              key={entry.name}
              type="button"
              className="view-tab"
              aria-current={view === entry.name ? 'page' : undefined}
              onClick={(event) => {
                showView(entry.name);
                // Clicked to write: the cursor goes to the message box, as Ctrl+L puts it.
                if (entry.name === 'chat' && madeWithPointer(event)) requestComposerFocus();
              }}
            >
              {entry.label}
            </button>
          ))}
        </nav>
        <div className="topbar-end">
          <TasksButton />
          <button type="button" className="view-tab" title={`Keyboard shortcuts (${shortcutLabel(shortcutsHelpShortcut)})`} onClick={showHelp}>
            Keyboard shortcuts
          </button>
          <span className={`link link-${link}`} role="status" aria-label={`Connection: ${linkText[link]}`}>
            <span className="badge-dot" aria-hidden="true" />
            {linkText[link]}
          </span>
        </div>
      </header>
      {link === 'no-token' ? (
        <Banner tone="alert">This page needs its access token. Open the exact address Atrium printed when it started.</Banner>
      ) : null}
      {link === 'bad-token' ? (
        <Banner tone="alert">
          This link is not valid or is out of date: Atrium makes a new one each time it starts. Open the link printed where you started Atrium (npm run web) most recently.
        </Banner>
      ) : null}
      {link === 'reconnecting' ? (
        <Banner tone="warning">Lost the connection to Atrium. Retrying… (is Atrium still running?)</Banner>
      ) : null}
      {loadError ? <Banner tone="alert">Could not load the servers: {loadError}</Banner> : null}
      <DataFileProblems />
      {/* While the link is down the mirror may be stale: dim it rather than show old states as live. */}
      <main className={link === 'open' ? 'content' : 'content content-stale'} aria-busy={link !== 'open'}>
        {view === 'chat' ? <ChatView /> : view === 'resources' ? <ResourcesView /> : view === 'roots' ? <RootsView /> : view === 'setup' ? <SetupView /> : view === 'settings' ? <SettingsView /> : <ServersView />}
      </main>
      <TasksPanel />
      <PendingRequests />
      <LaunchApprovalRequests />
      <LinkConfirmations />
      {helpOpen ? <ShortcutsHelp onClose={() => setHelpOpen(false)} /> : null}
    </div>
  );
}
