// Before a command-line chat starts any server (and asks the person to approve one), whether its
// message has a provider to go to at all: the same choice the turn will make, so a missing provider is
// one clear line first, not after servers started. A provider with no model named is not refused here:
// the turn asks its API for its models, as the window does.

import type { ProviderChoice } from '../chat/providerSettings.ts';
import { ModelChoiceError, chooseProvider } from '../chat/providerSettings.ts';
import type { ProviderSettings } from '../store/settingsStore.ts';

export type { ProviderChoice };

/** Throws the ModelChoiceError the turn would throw when no provider can take the message. */
export function checkProviderChoice(settings: Readonly<ProviderSettings>, choice: ProviderChoice): void {
  try {
    chooseProvider(settings, choice);
  } catch (error) {
    if (!(error instanceof ModelChoiceError) || error.modelless === undefined) throw error;
  }
}
