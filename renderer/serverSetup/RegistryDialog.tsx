import { useEffect, useId, useRef, useState } from 'react';
import type { RegistryEntryView, RegistrySearch, RegistrySource } from '../../shared/installs.ts';
import { timeFromNow } from '../../shared/timeFromNow.ts';
import { asSentence } from '../../shared/sentence.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import { useAtriumApi } from '../api/useAtriumApi.ts';
import { useHostQuery } from '../store/useHostQuery.ts';
import { Banner } from '../ui/Banner.tsx';
import { ConsentDialog } from '../ui/ConsentDialog.tsx';
import { ProblemAlert } from '../ui/ProblemAlert.tsx';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { RegistryInstallForm } from './RegistryInstallForm.tsx';

/** How many entries the list shows at once; more words narrow it. */
const SHOWN = 50;

const SOURCE_WORDS: Record<RegistrySource, string> = {
  policy: 'named by your organisation’s policy',
  flag: 'asked for',
  environment: 'named by ATRIUM_REGISTRY_URL',
  settings: 'saved in Settings',
  official: 'the official MCP Registry',
};

/**
 * Servers › Add › From the registry: the registry's servers searched by name, title and description
 * (deleted ones never shown, deprecated ones with their message), how fresh the list is, and installing
 * one. An installed server is off until the person approves it in its start dialog, which follows.
 */
export function RegistryDialog({ onDone }: { onDone(): void }) {
  const api = useAtriumApi();
  const [typed, setTyped] = useState('');
  const [words, setWords] = useState('');
  const [reloads, setReloads] = useState(0);
  const refreshNext = useRef(false);
  const [chosen, setChosen] = useState<{ entry: RegistryEntryView; registry: string } | null>(null);
  const searchId = useId();
  // Typing settles before the host is asked again.
  useEffect(() => {
    const timer = setTimeout(() => setWords(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const { data, error } = useHostQuery(() => {
    const refresh = refreshNext.current;
    refreshNext.current = false;
    return api.searchRegistry({ words, limit: SHOWN, ...(refresh ? { refresh: true } : {}) });
  }, `${words}\u0000${reloads}`);

  const unreachable = data?.unreachable ?? error;
  if (chosen) return <RegistryInstallForm entry={chosen.entry} registry={chosen.registry} onBack={() => setChosen(null)} onInstalled={onDone} />;

  return (
    <ConsentDialog title="Add from the registry" from={data && data.unreachable === undefined ? <RegistryLine search={data} /> : 'Servers published on an MCP Registry.'} onDismiss={onDone} wide>
      <div className="field">
        <label htmlFor={searchId}>Search by name, title or description</label>
        <input id={searchId} type="search" value={typed} placeholder="weather, github, files…" onChange={(event) => setTyped(event.target.value)} data-autofocus />
      </div>
      {data?.fromCopy ? (
        <Banner tone="warning">
          <p className="banner-title">The registry did not answer; this is the list Atrium kept {timeFromNow(data.fetchedAt, Date.now())}.</p>
          <p>
            <UntrustedText text={data.fromCopy} />
          </p>
        </Banner>
      ) : null}
      {/* No list kept yet to fall back on: what happened, and what to do (another registry, where the person chooses it). */}
      <ProblemAlert text={unreachable ? `${asSentence(unreachable)} Atrium has no list of it kept yet: try again in a moment (Read the list again)${data && choosable(data.registrySource) ? ', or use another registry below' : ''}.` : null} />
      {!data && !error ? <p className="muted">Reading the registry’s list…</p> : null}
      {data && data.unreachable === undefined ? <RegistryResults search={data} onChoose={(entry) => setChosen({ entry, registry: data.registry })} /> : null}
      {data ? <RegistryAddress search={data} onSaved={() => setReloads((n) => n + 1)} /> : null}
      <div className="consent-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            refreshNext.current = true;
            setReloads((n) => n + 1);
          }}
        >
          Read the list again
        </button>
        <button type="button" className="button" onClick={onDone}>
          Close
        </button>
      </div>
    </ConsentDialog>
  );
}

function RegistryLine({ search }: { search: RegistrySearch }) {
  return (
    <>
      From <UntrustedText text={search.registry} /> ({SOURCE_WORDS[search.registrySource]}), its list as read {timeFromNow(search.fetchedAt, Date.now())}.
    </>
  );
}

function RegistryResults({ search, onChoose }: { search: RegistrySearch; onChoose(entry: RegistryEntryView): void }) {
  if (search.entries.length === 0) return <p className="muted">No server matches.</p>;
  return (
    <>
      <ul className="registry-entries" aria-label="Registry servers">
        {search.entries.map((entry) => (
          <li key={entry.name}>
            <article className="registry-entry" aria-label={entry.name}>
              <div className="registry-entry-head">
                <h3>
                  <UntrustedText text={entry.title ?? entry.name} /> <span className="muted"><UntrustedText text={entry.version} /></span>
                </h3>
                <button type="button" className="button button-small" aria-label={`Install ${entry.name}…`} disabled={entry.kinds.length === 0} onClick={() => onChoose(entry)}>
                  Install…
                </button>
              </div>
              <p>
                <UntrustedText text={entry.description} />
              </p>
              <p className="muted">
                <span className="code-inline"><UntrustedText text={entry.name} /></span> · publisher <UntrustedText text={entry.publisher.namespace} /> ({entry.publisher.verified ? 'verified' : 'not verified'}) ·{' '}
                {entry.kinds.length ? entry.kinds.join(', ') : 'nothing Atrium can install'}
              </p>
              {entry.status === 'deprecated' ? (
                <p className="registry-deprecated">
                  Deprecated{entry.statusMessage ? ': ' : '.'}
                  {entry.statusMessage ? <UntrustedText text={entry.statusMessage} /> : null}
                </p>
              ) : null}
            </article>
          </li>
        ))}
      </ul>
      <p className="muted">
        {search.total > search.entries.length ? `Showing ${search.entries.length} of ${search.total}: add words to narrow it.` : `${search.total} server${search.total === 1 ? '' : 's'}.`}
        {search.skipped ? ` ${search.skipped} entr${search.skipped === 1 ? 'y' : 'ies'} the registry sent could not be read and ${search.skipped === 1 ? 'is' : 'are'} left out.` : ''}
      </p>
    </>
  );
}

/** Whether the person chooses the registry here: not when the policy or ATRIUM_REGISTRY_URL names it. */
function choosable(source: RegistrySearch['registrySource']): boolean {
  return source === 'settings' || source === 'official';
}

/** The registry Atrium asks when nothing else names one, saved in Settings (not when the policy or ATRIUM_REGISTRY_URL decides). */
function RegistryAddress({ search, onSaved }: { search: RegistrySearch; onSaved(): void }) {
  const api = useAtriumApi();
  const [address, setAddress] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  if (search.registrySource === 'policy') return <p className="muted">Your organisation’s policy names this registry; Atrium installs from no other.</p>;
  // The line at the top says so ("named by ATRIUM_REGISTRY_URL"): nothing to change here.
  if (search.registrySource === 'environment') return null;
  const save = (url: string | null) =>
    api.setRegistryAddress({ url }).then(
      () => {
        setProblem(null);
        setAddress('');
        onSaved();
      },
      (failure: unknown) => setProblem(errorMessage(failure)),
    );
  return (
    <form
      className="registry-address"
      onSubmit={(event) => {
        event.preventDefault();
        void save(address.trim());
      }}
    >
      <label className="field" htmlFor={id}>
        Another registry
      </label>
      <div className="registry-address-row">
        <input id={id} value={address} placeholder="https://registry.example.com" onChange={(event) => setAddress(event.target.value)} />
        <button type="submit" className="button" disabled={address.trim() === ''}>
          Use it
        </button>
        {search.registrySource === 'settings' ? (
          <button type="button" className="button" onClick={() => void save(null)}>
            Use the official registry
          </button>
        ) : null}
      </div>
      <ProblemAlert text={problem} />
    </form>
  );
}
