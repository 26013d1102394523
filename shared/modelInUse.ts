// Which provider and model a conversation's next message goes to, as the window shows it in the model
// picker and sends it: the person's pick for this conversation, else the conversation's own (kept by the
// host), else the host's default. The host decides every default (ProviderView.isDefault, defaultModel);
// the window only chooses between the person's pick and the host's answer, so what it shows is what is used.
import type { ConversationSummary, ProviderView } from './contract.ts';

export interface ModelInUse {
  provider: string;
  model: string;
}

export function modelInUse(
  providers: readonly ProviderView[] | null,
  conversation: Pick<ConversationSummary, 'providerId' | 'model'> | null,
  picked: ModelInUse | undefined,
): ModelInUse | null {
  // A pick whose provider was removed since is not offered any more: the picker cannot show it, so it is not used.
  if (picked && (!providers || providers.some((p) => p.id === picked.provider))) return picked;
  const own = conversation?.providerId ? providers?.find((p) => p.id === conversation.providerId) : undefined;
  if (conversation?.providerId && (own || !providers)) {
    const model = conversation.model ?? own?.defaultModel;
    // Before the providers are known, the conversation's own choice is still the one the host would use.
    if (model) return { provider: conversation.providerId, model };
  }
  const fallback = providers?.find((p) => p.isDefault) ?? providers?.[0];
  const model = fallback?.defaultModel ?? fallback?.models[0];
  return fallback && model ? { provider: fallback.id, model } : null;
}
