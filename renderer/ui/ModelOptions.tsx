import type { ProviderView } from '../../shared/contract.ts';

/** Between a provider's name and a model's in an option's value: neither can hold it. */
const SEPARATOR = '\u0000';

/** The value of the option for `model` of `provider`. */
export function modelOptionValue(provider: string, model: string): string {
  return `${provider}${SEPARATOR}${model}`;
}

/** The provider and model an option's value names. */
export function modelOfOption(value: string): { provider: string; model: string } {
  const [provider = '', model = ''] = value.split(SEPARATOR);
  return { provider, model };
}

/**
 * The models each provider offers, one group per provider, for a model <select>. The chosen model is
 * among them even when its provider's list leaves it out (an alias the API does not list, a model named
 * in providers.json by hand): a select whose value has no option shows its first one instead, and would
 * say that another model, or none, is in use.
 */
export function ModelOptions({ providers, chosen }: { providers: readonly ProviderView[]; chosen: { provider: string; model: string } | undefined }) {
  return providers.map((p) => {
    const unlisted = chosen && chosen.provider === p.id && chosen.model && !p.models.includes(chosen.model) ? [chosen.model] : [];
    return (
      <optgroup key={p.id} label={p.error ? `${p.id} (models not listed)` : p.id}>
        {[...p.models, ...unlisted].map((m) => (
          <option key={m} value={modelOptionValue(p.id, m)}>
            {m}
          </option>
        ))}
      </optgroup>
    );
  });
}
