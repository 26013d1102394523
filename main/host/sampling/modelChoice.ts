// Which of the person's models answers a server's sampling request. The server only advises
// (modelPreferences): hints are tried first, in order, as substrings of the available model names; then
// the cost / speed / intelligence priorities are weighed over the models' traits; else the default.
// Traits come from providers.json ("modelTraits") where the person set them, else from the model
// family's name, which is how providers tier their models (haiku/mini/flash … opus/pro/large).

import type { ModelPreferences } from '@modelcontextprotocol/client';
import type { ModelTraits } from '../../store/settingsStore.ts';

export type { ModelTraits };

export interface ModelChoice {
  model: string;
  why: string;
}

const SMALL = /haiku|mini|nano|flash|lite|small|tiny|\b[1-8]b\b|[-_:][1-8]b\b/i;
const LARGE = /opus|\bpro\b|-pro|large|ultra|\bo1\b|\bo3\b|70b|405b|gpt-5(?!.*mini)/i;

export function traitsOf(model: string, configured: Readonly<Record<string, Partial<ModelTraits>>> = {}): ModelTraits {
  const guessed: ModelTraits = SMALL.test(model)
    ? { cost: 0.2, speed: 0.9, intelligence: 0.4 }
    : LARGE.test(model)
      ? { cost: 0.9, speed: 0.3, intelligence: 0.95 }
      : { cost: 0.5, speed: 0.6, intelligence: 0.7 };
  return { ...guessed, ...configured[model] };
}

export function chooseModel(
  preferences: ModelPreferences | undefined,
  models: readonly string[],
  defaultModel: string,
  configuredTraits: Readonly<Record<string, Partial<ModelTraits>>> = {},
): ModelChoice {
  const hints = (preferences?.hints ?? []).map((h) => h.name).filter((name): name is string => typeof name === 'string' && name.length > 0);
  for (const hint of hints) {
    const match = models.find((m) => m.toLowerCase().includes(hint.toLowerCase()));
    if (match) return { model: match, why: `matches the server's hint "${hint}"` };
  }
  const weights = { cost: clamp(preferences?.costPriority), speed: clamp(preferences?.speedPriority), intelligence: clamp(preferences?.intelligencePriority) };
  const noHintMatch = hints.length > 0 ? `no model matches the server's hints (${hints.join(', ')}); ` : '';
  if (models.length > 0 && weights.cost + weights.speed + weights.intelligence > 0) {
    const score = (model: string) => {
      const t = traitsOf(model, configuredTraits);
      return weights.cost * (1 - t.cost) + weights.speed * t.speed + weights.intelligence * t.intelligence;
    };
    // The default model wins ties, so a request with even priorities does not hop between models.
    const ranked = [...new Set([defaultModel, ...models])].map((model) => ({ model, score: score(model) }));
    const best = ranked.reduce((a, b) => (b.score > a.score + 1e-9 ? b : a));
    return {
      model: best.model,
      why: `${noHintMatch}best fit for the server's priorities (cost ${weights.cost}, speed ${weights.speed}, intelligence ${weights.intelligence})`,
    };
  }
  return { model: defaultModel, why: `${noHintMatch || 'the server gave no model hints; '}using the default` };
}

function clamp(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
