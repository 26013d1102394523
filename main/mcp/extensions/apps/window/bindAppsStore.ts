// MCP Apps' part of keeping the store a mirror of the host: what the person chose for servers' views, read
// on every (re)connect and then kept by the host's `viewTrustChanged`.

import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import type { AtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import type { ExtensionBinding } from '../../../../../renderer/store/extensionBinding.ts';

export function bindAppsStore(api: AtriumClientApi, store: AtriumStore): ExtensionBinding {
  const off = api.on('viewTrustChanged', (viewTrust) => store.getState().setViewTrust(viewTrust));
  return {
    reload: async () => store.getState().setViewTrust(await api.listViewTrust({})),
    unbind: off,
  };
}
