import { useState } from 'react';
import type { ProviderView } from '../../../shared/contract.ts';
import { DEFAULT_TOOL_CONTEXT_PERCENT, DEFAULT_TOOL_THRESHOLD } from '../../../shared/toolDeferralDefaults.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { useActionProblem } from '../../ui/useActionProblem.ts';
import { Banner } from '../../ui/Banner.tsx';
import { ApprovalSettings } from './ApprovalSettings.tsx';
import { AddProviderForm } from './AddProviderForm.tsx';
import { ProviderRow } from './ProviderRow.tsx';
import { ThemePicker } from './ThemePicker.tsx';
import { modelOfOption, modelOptionValue, ModelOptions } from '../../ui/ModelOptions.tsx';
import { ProblemAlert } from '../../ui/ProblemAlert.tsx';

/**
 * Providers and their keys (typed into a password field, stored encrypted, never shown again: only
 * "key set"; each provider edited and its connection tested in place), the default model, the tool-count threshold, how tool calls and sampling are approved, and
 * the theme.
 */
export function SettingsView() {
  const api = useAtriumApi();
  // The store mirrors the saved settings (settingsChanged) and lists the providers' models again after each change.
  const settings = useAtriumStore((state) => state.settings);
  const providers = useAtriumStore((state) => state.providers);
  const defaultModel = defaultShown(settings?.default, providers);
  const error = useAtriumStore((state) => state.providersError);
  const actionProblem = useActionProblem();
  const problem = actionProblem.problem;
  const [saved, setSaved] = useState<string | null>(null);
  // Where keys would be weakly kept, none is stored until the person ticks that they accept it.
  const [acceptWeak, setAcceptWeak] = useState(false);
  const weakStorage = Boolean(settings?.canStoreKeys && settings.keyStorageWarning);
  const canStore = Boolean(settings?.canStoreKeys) && (!weakStorage || acceptWeak);
  const consent = weakStorage && acceptWeak ? { acceptWeakKeyStorage: true } : {};
  /** Runs a change, then says it was saved or why not; resolves with whether it was saved. */
  const act = async (action: () => Promise<unknown>, done: string): Promise<boolean> => {
    actionProblem.clear();
    setSaved(null);
    try {
      await action();
      setSaved(done);
      return true;
    } catch (failure) {
      actionProblem.fail(failure);
      return false;
    }
  };

  return (
    <div className="setup panel-pad">
      <h2>Settings</h2>
      {error ? <p role="alert">{error}</p> : null}
      <ProblemAlert text={problem} />
      {saved ? (
        <p className="setup-done" role="status">
          ✓ {saved}
        </p>
      ) : null}

      <section className="setup-section" aria-label="Providers">
        <h3>Model providers</h3>
        {settings?.keyStorageWarning ? (
          <Banner tone="warning">
            <p className="banner-title">Keys are not well protected on this computer</p>
            <p>{settings.keyStorageWarning}</p>
            {weakStorage ? (
              <label className="field-check">
                <input type="checkbox" checked={acceptWeak} onChange={(event) => setAcceptWeak(event.target.checked)} />
                Store keys here anyway, knowing they are weakly protected
              </label>
            ) : null}
          </Banner>
        ) : null}
        <ul className="setup-servers">
          {settings?.providers.map((provider) => (
            <ProviderRow
              key={provider.id}
              provider={provider}
              canStore={canStore}
              onEdit={(edit) => {
                actionProblem.clear();
                setSaved(null);
                return api.editProvider({ id: provider.id, ...edit, ...(edit.key ? consent : {}) });
              }}
              onEdited={setSaved}
              onTest={() => api.testProvider({ id: provider.id })}
              onRemove={() => void act(() => api.removeProvider({ id: provider.id }), `Removed ${provider.id}`)}
            />
          ))}
          {settings && settings.providers.length === 0 ? <li className="muted">No provider yet.</li> : null}
        </ul>
        {settings ? (
          <AddProviderForm
            canStore={canStore}
            onAdd={async (provider, key) => {
              actionProblem.clear();
              setSaved(null);
              // A refusal is the form's to show, beside its fields: it rejects out of here.
              await api.saveProvider({ provider, ...(key ? { key, ...consent } : {}) });
              setSaved(`Added ${provider.id}`);
            }}
          />
        ) : null}
      </section>

      <section className="setup-section" aria-label="Defaults">
        <h3>Defaults</h3>
        <label className="field">
          Default model for new conversations
          <select
            value={defaultModel ? modelOptionValue(defaultModel.provider, defaultModel.model) : ''}
            onChange={(event) => {
              const chosen = modelOfOption(event.target.value);
              void act(() => api.saveDefaults({ default: chosen }), `New conversations use ${chosen.model}`);
            }}
          >
            <option value="">—</option>
            {providers ? <ModelOptions providers={providers} chosen={defaultModel} /> : null}
          </select>
        </label>
        <DefaultModelNote chosen={defaultModel} providers={providers} />
        <NumberSetting
          label="Past this many tools, the model gets a search tool instead of all of them"
          value={settings?.toolThreshold ?? DEFAULT_TOOL_THRESHOLD}
          min={1}
          max={10_000}
          onSave={async (toolThreshold) => void (await act(() => api.saveDefaults({ toolThreshold }), `Past ${toolThreshold} tools the model searches for tools`))}
        />
        <NumberSetting
          label="Or when their definitions would take more than this share of the model’s context (percent)"
          hint="The context a local server reports for its model (Ollama, LM Studio, llama.cpp, vLLM); else 200,000 tokens for Anthropic, 128,000 for OpenAI, 32,000 for an OpenAI-compatible server. Tools you keep always loaded (a server’s Tools tab) are sent either way."
          value={settings?.toolContextPercent ?? DEFAULT_TOOL_CONTEXT_PERCENT}
          min={1}
          max={100}
          onSave={async (toolContextPercent) => void (await act(() => api.saveDefaults({ toolContextPercent }), `The model searches for tools once their definitions would take more than ${toolContextPercent}% of its context`))}
        />
      </section>

      <section className="setup-section" aria-label="Approvals">
        <h3>Approvals</h3>
        {settings ? <ApprovalSettings saved={settings.approvals} onSave={(approvals, done) => act(() => api.saveDefaults({ approvals }), done)} /> : null}
      </section>

      <section className="setup-section" aria-label="Appearance">
        <h3>Appearance</h3>
        <ThemePicker />
      </section>
    </div>
  );
}

/** The model new conversations use: the one chosen here, else the one the host falls back to (the default provider's first). */
function defaultShown(chosen: { provider: string; model: string } | undefined, providers: readonly ProviderView[] | null): { provider: string; model: string } | undefined {
  if (chosen) return chosen;
  const fallback = providers?.find((p) => p.isDefault);
  return fallback?.defaultModel ? { provider: fallback.id, model: fallback.defaultModel } : undefined;
}

function NumberSetting({ label, hint, value, min, max, onSave }: { label: string; hint?: string; value: number; min: number; max: number; onSave(value: number): Promise<void> }) {
  const [text, setText] = useState(String(value));
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
  return (
    <form
      className="roots-add"
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) void onSave(n);
      }}
    >
      <label className="field">
        {label}
        <input type="number" min={min} max={max} value={text} aria-invalid={!valid} onChange={(event) => setText(event.target.value)} />
        {valid ? (hint ? <span className="muted">{hint}</span> : null) : <span role="alert">A whole number from {min} to {max.toLocaleString('en')}.</span>}
      </label>
      <button type="submit" className="button" disabled={!valid}>
        Save
      </button>
    </form>
  );
}

/**
 * A default model its provider no longer offers (chosen at an address the provider has since left, or
 * retired by its API) is said under the choice, as is one Atrium cannot check now.
 */
function DefaultModelNote({ chosen, providers }: { chosen: { provider: string; model: string } | undefined; providers: readonly ProviderView[] | null }) {
  const provider = chosen ? providers?.find((p) => p.id === chosen.provider) : undefined;
  if (!chosen || !provider || provider.models.includes(chosen.model)) return null;
  return (
    <p className="muted" role="note">
      {provider.error
        ? `${chosen.model} cannot be checked now: ${provider.id} does not list its models (${provider.error.replace(/[.]$/, '')}).`
        : `${chosen.model} is not among the models ${provider.id} offers now: new conversations may fail until you choose another.`}
    </p>
  );
}
