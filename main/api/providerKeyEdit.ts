// What an edit of a provider does to its key. The rule: a key goes only where it was set for. When the
// address it goes to changes (a new base URL, or another API with its own address), or the API that
// speaks to it does, the stored key is removed unless the person agreed to send it to the new address,
// naming both addresses as the window showed them; a key typed with the edit is set for the new address.

import type { FieldProblem } from '../../shared/fieldProblems.ts';
import type { ProviderEdit, ProviderKind } from '../../shared/contract.ts';
import { addressesInWords } from '../../shared/providerAddress.ts';
import type { KeyState } from '../chat/providerKeys.ts';

export interface KeyEdit {
  before: { kind: ProviderKind; address: string | undefined };
  after: { kind: ProviderKind; address: string | undefined };
  key: KeyState;
  /** The environment variables the key can come from, to name where one that comes from there is changed. */
  variables: string[];
  asked: { key?: string; removeKey?: boolean; keepKey?: { from: string; to: string } };
}

/** What to do with the stored key, and what the person is told became of it; or why the edit cannot be made. */
export type KeyPlan =
  | { act: 'none' | 'remove'; outcome: ProviderEdit['key'] }
  | { act: 'set'; key: string; address: string; outcome: 'replaced' }
  | { act: 'send'; address: string; outcome: 'moved' }
  | { problem: FieldProblem };

export function planKeyEdit({ before, after, key, variables, asked }: KeyEdit): KeyPlan {
  const fromEnvironment = `Its key comes from Atrium's environment (${variables.join(' or ')}), which Settings cannot change`;
  if (asked.key !== undefined && asked.removeKey === true) return { problem: { field: 'key', message: 'Replace the key or remove it, not both.' } };
  if (asked.key !== undefined) {
    if (key.source === 'environment') return { problem: { field: 'key', message: `${fromEnvironment}, and it is used before a key typed here: change it there.` } };
    if (after.address === undefined) return { problem: { field: 'key', message: 'A key needs an address to go to: give the Base URL first.' } };
    return { act: 'set', key: asked.key, address: after.address, outcome: 'replaced' };
  }
  if (asked.removeKey === true) {
    if (key.source === 'environment') return { problem: { field: 'key', message: `${fromEnvironment}: unset it there.` } };
    return { act: key.source === 'stored' ? 'remove' : 'none', outcome: key.source === 'stored' ? 'removed' : 'unchanged' };
  }
  if (key.source !== 'stored') return { act: 'none', outcome: 'unchanged' };

  const setFor = key.setFor ?? before.address;
  const moves = before.kind !== after.kind || setFor !== after.address;
  if (!moves) return { act: 'none', outcome: 'unchanged' };
  const keep = asked.keepKey;
  if (keep === undefined || after.address === undefined) return { act: 'remove', outcome: 'dropped' };
  if (keep.from !== setFor || keep.to !== after.address) {
    const [was, now] = setFor === undefined ? ['no address', after.address] : addressesInWords(setFor, after.address);
    return { problem: { field: 'keepKey', message: `The key is set for ${was} and would now go to ${now}, not what you agreed to: look at the form again and confirm.` } };
  }
  return { act: 'send', address: after.address, outcome: 'moved' };
}
