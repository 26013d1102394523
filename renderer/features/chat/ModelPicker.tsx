import type { ConversationSummary } from '../../../shared/contract.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../api/useHostQuery.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';

const SEPARATOR = '\u0000';

/**
 * Which provider and model this conversation's next message goes to: the person's pick, else the
 * conversation's own, else the default. Providers whose models could not be listed show why.
 */
export function ModelPicker({ conversation }: { conversation: ConversationSummary | null }) {
  const api = useAtriumApi();
  const key = conversation?.id ?? 'new';
  const picked = useAtriumStore((state) => state.modelChoice[key]);
  const chooseModel = useAtriumStore((state) => state.chooseModel);
  const { data: providers } = useHostQuery(() => api.listProviders({}), 'providers');
  if (!providers || providers.length === 0) return null;
  const fallback = providers.find((p) => p.defaultModel) ?? providers[0];
  const provider = picked?.provider ?? conversation?.providerId ?? fallback?.id ?? '';
  const model = picked?.model ?? conversation?.model ?? fallback?.defaultModel ?? fallback?.models[0] ?? '';
  const problems = providers.filter((p) => p.error);
  return (
    <label className="model-picker">
      <span className="muted">Model</span>
      <select
        value={`${provider}${SEPARATOR}${model}`}
        onChange={(event) => {
          const [nextProvider = '', nextModel = ''] = event.target.value.split(SEPARATOR);
          chooseModel(key, { provider: nextProvider, model: nextModel });
        }}
        title={problems.map((p) => `${p.id}: ${p.error}`).join('\n') || undefined}
      >
        {providers.map((p) => (
          <optgroup key={p.id} label={p.error ? `${p.id} (models not listed)` : p.id}>
            {[...new Set([...p.models, ...(p.id === provider && !p.models.includes(model) ? [model] : [])])].map((m) => (
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
