// The installs section of the contract: a registry searched, an entry's or a bundle's plan, and installing
// one, over the installer (main/mcp/install/). A bundle arrives as its bytes: the host never opens a path
// the window names.

import type { AtriumApi } from '../../shared/contract.ts';
import type { ServerInstaller } from '../mcp/install/serverInstaller.ts';
import type { SettingsStore } from '../store/settingsStore.ts';

type InstallRequests = Pick<AtriumApi, 'searchRegistry' | 'planRegistryInstall' | 'installFromRegistry' | 'previewBundle' | 'installBundle' | 'setRegistryAddress'>;

export function createInstallApi(installer: ServerInstaller, settings: SettingsStore): InstallRequests {
  return {
    searchRegistry: ({ words, registry, refresh, limit }) => installer.search(words, { ...(registry !== undefined ? { registry } : {}), ...(refresh ? { refresh } : {}), ...(limit !== undefined ? { limit } : {}) }),
    planRegistryInstall: ({ name, version, registry }) => installer.plan(name, version, registry),
    installFromRegistry: ({ name, version, registry, choice, values, serverId }) =>
      installer.installFromRegistry({
        name,
        values,
        ...(version !== undefined ? { version } : {}),
        ...(registry !== undefined ? { registry } : {}),
        ...(choice !== undefined ? { choice } : {}),
        ...(serverId !== undefined && serverId !== '' ? { serverId } : {}),
      }),
    previewBundle: ({ bundle, sha256 }) => installer.previewBundle(Buffer.from(bundle, 'base64'), sha256),
    installBundle: ({ bundle, sha256, values, serverId }) =>
      installer.installBundle({ bytes: Buffer.from(bundle, 'base64'), values, ...(sha256 !== undefined ? { sha256 } : {}), ...(serverId !== undefined && serverId !== '' ? { serverId } : {}) }),
    setRegistryAddress: async ({ url }) => {
      await settings.update((current) => {
        const { registryUrl: _previous, ...rest } = current;
        return url === null ? rest : { ...rest, registryUrl: url };
      });
      return null;
    },
  };
}
