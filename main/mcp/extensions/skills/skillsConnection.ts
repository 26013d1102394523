// Skills' part in every connection: the client says it takes part in the extension
// (io.modelcontextprotocol/skills); what a server serves is read through `connectionSkills`, on the
// connection's live session, only when the host asks.

import type { ConnectionExtension } from '../../connection/connectionServices.ts';
import { SKILLS_EXTENSION } from './contract/skillViews.ts';

export const skillsConnection: ConnectionExtension = {
  id: SKILLS_EXTENSION,
  declare: () => ({}),
};
