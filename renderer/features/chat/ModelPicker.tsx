import type { ProviderView } from '../../../shared/contract.ts';
import type { ModelInUse } from '../../../shared/modelInUse.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';

const SEPARATOR = '\u0000';

/**
 * Which provider and model this conversation's next message goes to (`shown`, the one the composer
 * sends); picking another keeps it for this conversation. Providers whose models could not be listed
 * show why.
 */
export function ModelPicker({ conversationKey, providers, shown }: { conversationKey: string; providers: readonly ProviderView[] | null; shown: ModelInUse | null }) {
  const chooseModel = useAtriumStore((state) => state.chooseModel);
  if (!providers || providers.length === 0) return null;
  if (!providers.some((p) => p.models.length > 0)) {
    // Nothing to pick: say why beside the picker rather than offer an empty list.
    return (
      <p className="model-picker muted" role="status">
        {/* A provider's error already names it. */}
        No model to use: {providers.map((p) => p.error ?? `${p.id} offers no models.`).join(' ')}
      </p>
    );
  }
  const provider = shown?.provider ?? '';
  const model = shown?.model ?? '';
  const problems = providers.filter((p) => p.error);
  return (
    <label className="model-picker">
      <span className="muted">Model</span>
      <select
        value={`${provider}${SEPARATOR}${model}`}
        onChange={(event) => {
          const [nextProvider = '', nextModel = ''] = event.target.value.split(SEPARATOR);
          chooseModel(conversationKey, { provider: nextProvider, model: nextModel });
        }}
        title={problems.map((p) => `${p.id}: ${p.error}`).join('\n') || undefined}
      >
        {providers.map((p) => (
          <optgroup key={p.id} label={p.error ? `${p.id} (models not listed)` : p.id}>
            {[...new Set([...p.models, ...(p.id === provider && model && !p.models.includes(model) ? [model] : [])])].map((m) => (
              <option key={m} value={`${p.id}${SEPARATOR}${m}`}>
                {m}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}
