// MCP Apps' requests of the contract (appsContract.ts), thin over the extension's host part: a tool's view
// read for the window, what a view asks for (a call through the one tool-call pipeline, context for the
// model), and what the person chose for servers' views (the view trust store announces its changes).

import { randomUUID } from 'node:crypto';
import type { AtriumApi } from '../../../../../shared/contract.ts';
import type { AppsResults } from '../contract/appsContract.ts';
import type { ToolViews } from '../host/toolViews.ts';
import type { ViewTrustStore } from '../host/viewTrust.ts';

export interface AppsApiDeps {
  views: ToolViews;
  trust: ViewTrustStore;
}

export function createAppsApi({ views, trust }: AppsApiDeps): Pick<AtriumApi, keyof AppsResults> {
  return {
    openToolView: async ({ serverId, tool }) => views.open(serverId, tool),
    // A view's call can be cancelled by its id (cancelCall), as any call can.
    callToolFromView: async ({ conversationId, viewOf, tool, arguments: args, callId = randomUUID() }) => views.call({ conversationId, viewOf, tool, arguments: args ?? {}, callId }),
    setViewContext: async (update) => ({ kept: views.setContext(update) }),
    listViewContext: async ({ conversationId }) => views.context(conversationId),
    listViewTrust: async ({ serverId }) => trust.list(serverId),
    setViewTrust: async ({ serverId, trusted }) => {
      if (trusted) trust.allow(serverId);
      else trust.revoke(serverId);
      return null;
    },
    setViewPermission: async ({ serverId, permission, allowed }) => {
      trust.setPermission(serverId, permission, allowed);
      return null;
    },
  };
}
