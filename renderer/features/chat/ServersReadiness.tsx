import type { ServerSnapshot, ServerStatusKind } from '../../../shared/domain.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';

/** Why a server that is not ready is not, as the readiness line counts them, in the order it names them (one the person turned off is not news). */
const notReadyReasons: Array<[ServerStatusKind, (count: number) => string]> = [
  ['needs-approval', (n) => `${n} waiting for your approval`],
  ['needs-sign-in', (n) => `${n} waiting for you to sign in`],
  ['blocked', (n) => `${n} blocked by your organisation’s policy`],
  ['error', (n) => `${n} that could not start`],
  ['restarting', (n) => `${n} restarting`],
  ['stopped', (n) => `${n} stopped`],
];

/**
 * What the model of a new conversation can use, under "Start a conversation": the ready servers' tools,
 * or, when no server is ready, that it answers without tools and why (waiting for approval, blocked,
 * failed), with the way to Servers. A person who starts chatting learns it before the model says it.
 * Sentences, in EmptyState's paragraph.
 */
export function ServersReadiness() {
  const servers = useAtriumStore((state) => state.servers);
  const loaded = useAtriumStore((state) => state.serversLoaded);
  const showView = useAtriumStore((state) => state.showView);
  if (!loaded) return null;
  const ready = servers.filter((server) => server.status.kind === 'ready').length;
  const starting = servers.filter((server) => server.status.kind === 'starting').length;
  const reasons = notReady(servers);
  // Labels without the word "Servers", which names the view's own tab.
  const toServers = (label: string) => (
    <button type="button" className="link-button" onClick={() => showView('servers')}>
      {label}
    </button>
  );
  if (servers.length === 0) return <>No servers yet, so the model answers without tools. {toServers('Add a server')}</>;
  if (ready > 0) {
    return (
      <>
        The model can use the tools of {ready === 1 ? 'the ready server' : `the ${ready} ready servers`}; you approve what needs approving.
        {reasons.length > 0 || starting > 0 ? <> Not ready: {[...(starting > 0 ? [`${starting} starting`] : []), ...reasons].join(', ')}. {toServers('See why')}</> : null}
      </>
    );
  }
  if (starting > 0) return <>Servers are starting: a message sent now waits for them a short while, so that the model has their tools.</>;
  return (
    <>
      No server is ready, so the model answers without tools: {reasons.length > 0 ? reasons.join(', ') : 'every server is turned off'}. {toServers('See why')}
    </>
  );
}

function notReady(servers: readonly ServerSnapshot[]): string[] {
  return notReadyReasons.flatMap(([kind, say]) => {
    const count = servers.filter((server) => server.status.kind === kind).length;
    return count > 0 ? [say(count)] : [];
  });
}
