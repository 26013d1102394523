// Which registry Atrium asks: the one the organisation's policy names (then no other), else the one a
// command names (`--registry URL`), else ATRIUM_REGISTRY_URL, else the one saved in Settings, else the
// official MCP Registry.

import type { RegistrySource } from '../../../../shared/installs.ts';
import { InstallError } from '../installError.ts';
import { OFFICIAL_REGISTRY } from './registryClient.ts';

export interface RegistryChoices {
  /** The registry an organisation's policy names, and the policy file that names it. */
  policy?: { address: string; file: string };
  requested?: string;
  environment?: string;
  settings?: string;
}

export function chooseRegistry(choices: RegistryChoices): { address: string; source: RegistrySource } {
  const requested = choices.requested === undefined ? undefined : registryAddress(choices.requested, 'the registry asked for');
  if (choices.policy) {
    const address = registryAddress(choices.policy.address, `the registry named by ${choices.policy.file}`);
    if (requested !== undefined && requested !== address) {
      throw new InstallError('invalid_params', `your organisation's policy (${choices.policy.file}) names the registry ${address}: Atrium installs from no other`);
    }
    return { address, source: 'policy' };
  }
  if (requested !== undefined) return { address: requested, source: 'flag' };
  if (choices.environment) return { address: registryAddress(choices.environment, 'ATRIUM_REGISTRY_URL'), source: 'environment' };
  if (choices.settings) return { address: registryAddress(choices.settings, 'the registry saved in Settings'), source: 'settings' };
  return { address: OFFICIAL_REGISTRY, source: 'official' };
}

/** An http(s) address without its trailing slash; anything else is refused naming where it came from. */
export function registryAddress(text: string, where: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new InstallError('invalid_params', `${where} (${text}) is not an address`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InstallError('invalid_params', `${where} (${text}) must be an http(s) address`);
  if (url.username || url.password) throw new InstallError('invalid_params', `${where} must not hold a user name or password`);
  return url.href.replace(/\/+$/, '');
}
