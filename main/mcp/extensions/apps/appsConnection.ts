// MCP Apps' part in every connection: a front end that can show views declares the extension
// (io.modelcontextprotocol/ui) with the one page type it renders; one without (the CLI) declares nothing,
// so a server does not count on a view being seen.

import type { ConnectionExtension } from '../../connection/connectionServices.ts';
import { MCP_APPS_EXTENSION, VIEW_MIME_TYPE } from './contract/viewSandbox.ts';

export const appsConnection: ConnectionExtension = {
  id: MCP_APPS_EXTENSION,
  declare: (services) => (services.showsViews ? { mimeTypes: [VIEW_MIME_TYPE] } : undefined),
};
