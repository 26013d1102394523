// What the API uses of the conversation side. The composition root (main/app/) builds these and hands
// them in; the API never builds them, so it cannot depend on how they are assembled.

import type { ChatService } from '../chat/chatService.ts';
import type { ModelResolver } from '../chat/modelResolver.ts';
import type { LiveApprovals } from '../host/approval/approvalChoices.ts';
import type { AuditLog } from '../host/approval/auditLog.ts';
import type { GrantLedger } from '../host/approval/grantLedger.ts';
import type { ToolCallPipeline } from '../host/tools/toolCallPipeline.ts';
import type { ToolCatalog } from '../host/tools/toolCatalog.ts';
import type { PendingRequests } from '../host/pendingRequests.ts';
import type { AppsApiDeps } from '../mcp/extensions/apps/api/appsApi.ts';
import type { TaskTracker } from '../mcp/extensions/tasks/host/taskTracker.ts';
import type { SkillsHost } from '../mcp/extensions/skills/host/skillsHost.ts';
import type { HistoryStore } from '../store/historyStore.ts';
import type { DraftStore } from '../store/draftStore.ts';
import type { SettingsStore } from '../store/settingsStore.ts';

export interface ConversationServices {
  /** The saved settings: every turn, call and sampling request reads its current snapshot. */
  settings: SettingsStore;
  /** How the next tool call and sampling request are approved, read from the live settings each time. */
  approvals: LiveApprovals;
  history: HistoryStore;
  /** The words typed in each conversation's message box and not sent. */
  drafts: DraftStore;
  ledger: GrantLedger;
  /** The tools as the model and the person see them: listed, pinned, offered, loaded, searched. */
  catalog: ToolCatalog;
  /** The one pipeline every tool call goes through, whoever makes it. */
  calls: ToolCallPipeline;
  audit: AuditLog;
  pending: PendingRequests;
  chat: ChatService;
  /** The providers' models, for the picker. */
  models: ModelResolver;
  /** MCP Apps: tools' views and the calls they ask for; the servers whose views show without asking, and their permissions. */
  apps: AppsApiDeps;
  /** MCP Tasks: the tasks calls started, followed to their end. */
  tasks: TaskTracker;
  /** Skills: servers' skills, the one path that loads them, the person's approvals of them. */
  skills: SkillsHost;
}
