// The sandbox's part of keeping the store a mirror of the host: every local server's sandbox, read on
// every (re)connect and then kept by the host's `sandboxChanged`.

import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import type { AtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import type { ExtensionBinding } from '../../../../../renderer/store/extensionBinding.ts';

export function bindSandboxStore(api: AtriumClientApi, store: AtriumStore): ExtensionBinding {
  const off = api.on('sandboxChanged', (summary) => store.getState().setSandbox(summary));
  return {
    reload: async () => store.getState().setSandboxes(await api.listSandboxes({})),
    unbind: off,
  };
}
