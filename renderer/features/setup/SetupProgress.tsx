import type { ProviderSettingsView } from '../../../shared/contract.ts';
import { statusLabel } from '../../../shared/domain.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

type Provider = ProviderSettingsView['providers'][number];

/** A provider the chat can use: one with a key, or a model server on this computer, which needs none. */
function isUsable(provider: Provider): boolean {
  if (provider.hasKey) return true;
  try {
    return provider.baseUrl !== undefined && ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(provider.baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * What is set up and what comes next: servers (live, from the host's snapshots), a provider the chat
 * can use, then the chat. Each step says what is there, or where to do it, with a button that goes.
 */
export function SetupProgress({ providers }: { providers: ProviderSettingsView['providers'] | null }) {
  const servers = useAtriumStore((state) => state.servers);
  const showView = useAtriumStore((state) => state.showView);
  // A new conversation, the cursor in its message box: the first thing asked is typed at once.
  const startConversation = useAtriumStore((state) => state.startConversation);
  const usable = providers?.filter(isUsable) ?? [];
  const hasServers = servers.length > 0;
  const hasProvider = usable.length > 0;
  const next = !hasServers ? 'add a server: the sample server below is the quickest.' : !hasProvider ? 'add a provider and its key in Settings.' : 'start a conversation.';

  return (
    <>
      <ol className="setup-progress" aria-label="Your set-up">
        <li className={hasServers ? 'setup-step-done' : undefined}>
          <span aria-hidden="true">{hasServers ? '✓' : '○'}</span>
          <span>
            {hasServers ? (
              <>
                {servers.length} server{servers.length === 1 ? '' : 's'}:{' '}
                {servers.map((server, index) => (
                  <span key={server.id}>
                    {index > 0 ? ', ' : null}
                    <UntrustedText text={server.id} /> ({statusLabel(server.status)})
                  </span>
                ))}
              </>
            ) : (
              'No server yet: add the sample server, import one, or paste one below.'
            )}
          </span>
          <button type="button" className="button" onClick={() => showView('servers')}>
            Open the server list
          </button>
        </li>
        <li className={hasProvider ? 'setup-step-done' : undefined}>
          <span aria-hidden="true">{hasProvider ? '✓' : '○'}</span>
          <span>
            {providers === null ? (
              'Looking at your providers…'
            ) : hasProvider ? (
              usable.map((provider, index) => (
                <span key={provider.id}>
                  {index > 0 ? ', ' : null}
                  <UntrustedText text={provider.id} /> {provider.hasKey ? 'has its key' : 'runs on this computer (no key needed)'}
                </span>
              ))
            ) : providers.length > 0 ? (
              `No provider with a key yet: ${providers.map((p) => p.id).join(', ')} still needs one, in Settings.`
            ) : (
              'No provider with a key yet: add one (Anthropic, OpenAI or a compatible server) and its key in Settings.'
            )}
          </span>
          <button type="button" className={hasServers && !hasProvider ? 'button button-primary' : 'button'} onClick={() => showView('settings')}>
            {hasProvider ? 'Manage providers' : 'Add a provider'}
          </button>
        </li>
        <li className={hasServers && hasProvider ? 'setup-step-done' : undefined}>
          <span aria-hidden="true">{hasServers && hasProvider ? '→' : '○'}</span>
          <span>Chat: ask something that needs a tool; Atrium asks before each tool runs.</span>
          <button type="button" className={hasServers && hasProvider ? 'button button-primary' : 'button'} onClick={startConversation}>
            Go to the chat
          </button>
        </li>
      </ol>
      <p className="setup-next">
        <strong>Next:</strong> {next}
      </p>
    </>
  );
}
