import type { ProviderView } from '../../../shared/contract.ts';
import type { ModelInUse } from '../../../shared/modelInUse.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { modelOfOption, modelOptionValue, ModelOptions } from '../../ui/ModelOptions.tsx';

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
  const problems = providers.filter((p) => p.error);
  return (
    <label className="model-picker">
      <span className="muted">Model</span>
      <select
        value={shown ? modelOptionValue(shown.provider, shown.model) : ''}
        onChange={(event) => chooseModel(conversationKey, modelOfOption(event.target.value))}
        title={problems.map((p) => `${p.id}: ${p.error}`).join('\n') || undefined}
      >
        <ModelOptions providers={providers} chosen={shown ?? undefined} />
      </select>
    </label>
  );
}
