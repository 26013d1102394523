// The conversation side's storage: the SQLite file with the history, the grant ledger, the tool pins,
// the conversation marks, the drafts and the audit log, opened and migrated together. The composition root
// (hostCore.ts) builds the rest over it in dependency order.

import { join } from 'node:path';
import type { ProviderChoice, ProviderSettings } from '../chat/providerSettings.ts';
import type { ModelResolver } from '../chat/modelResolver.ts';
import type { Database } from '../store/database.ts';
import { openDatabase } from '../store/database.ts';
import { launchUpgradeMigrations } from '../mcp/launch/launchUpgrade.ts';
import { HistoryStore, historyMigrations } from '../store/historyStore.ts';
import { workspaceMigrations } from '../store/workspaceStore.ts';
import { AuditLog, auditMigrations } from '../host/approval/auditLog.ts';
import { GrantLedger, grantMigrations } from '../host/approval/grantLedger.ts';
import { ConversationTaint, taintMigrations } from '../host/approval/conversationTaint.ts';
import { ToolPins, toolPinMigrations } from '../host/approval/toolPins.ts';
import { ViewTrustStore, viewTrustMigrations } from '../mcp/extensions/apps/host/viewTrust.ts';
import { ViewContextStore, viewContextMigrations } from '../mcp/extensions/apps/store/viewContextStore.ts';
import { TaskStore, taskMigrations } from '../mcp/extensions/tasks/store/taskStore.ts';
import { SkillApprovalStore, skillApprovalMigrations } from '../mcp/extensions/skills/store/skillApprovalStore.ts';
import { SkillsInUseStore, skillsInUseMigrations } from '../mcp/extensions/skills/store/skillsInUseStore.ts';
import { LoadedToolStore, loadedToolMigrations } from '../store/loadedToolStore.ts';
import { DraftStore, draftMigrations } from '../store/draftStore.ts';
import type { PendingListener } from '../host/pendingRequests.ts';
import type { SamplingModels } from '../host/sampling/samplingBroker.ts';

export const DATABASE_FILE_NAME = 'atrium.db';

export interface ConversationStores {
  db: Database;
  history: HistoryStore;
  ledger: GrantLedger;
  /** Every tool's definition as first seen or last approved: a tool that changed is withheld. */
  pins: ToolPins;
  /** Which conversations have read untrusted content. */
  taint: ConversationTaint;
  /** The servers whose views are shown without asking. */
  viewTrust: ViewTrustStore;
  /** What views told the model, per conversation. */
  viewContext: ViewContextStore;
  /** The tools each conversation loaded or called, kept loaded in its later turns. */
  loadedTools: LoadedToolStore;
  /** The words typed in each conversation's message box and not sent. */
  drafts: DraftStore;
  /** The tasks calls started (MCP Tasks), kept with their conversation. */
  tasks: TaskStore;
  /** Skills: the person's approvals, each bound to the files the skill had. */
  skillApprovals: SkillApprovalStore;
  /** Skills: the skills each conversation uses, with the entries they were loaded from. */
  skillsInUse: SkillsInUseStore;
  audit: AuditLog;
  close(): void;
}

/**
 * The migrations of atrium.db. The launch upgrade's comes first: whether any migration ran before it is
 * what tells a database an older Atrium made from a new one (launchUpgrade.ts).
 */
export const databaseMigrations = [
  ...launchUpgradeMigrations,
  ...historyMigrations,
  ...grantMigrations,
  ...auditMigrations,
  ...workspaceMigrations,
  ...toolPinMigrations,
  ...taintMigrations,
  ...viewTrustMigrations,
  ...viewContextMigrations,
  ...loadedToolMigrations,
  ...draftMigrations,
  ...taskMigrations,
  ...skillApprovalMigrations,
  ...skillsInUseMigrations,
];

/** Opens (and migrates) the home's atrium.db, or ':memory:' for tests and the conformance client. */
export function openConversationStores(home: string, databasePath?: string): ConversationStores {
  const db = openDatabase(databasePath ?? join(home, DATABASE_FILE_NAME), databaseMigrations);
  const history = new HistoryStore(db);
  const tasks = new TaskStore(db);
  // A reply that was streaming when the process died is incomplete, not still streaming; calls and
  // requests that were waiting then are over, but a call its server runs on as a task (followed again).
  history.markInterruptedMessages();
  history.closeInterruptedWork(tasks.runningCalls());
  return {
    db,
    history,
    ledger: new GrantLedger(db),
    pins: new ToolPins(db),
    taint: new ConversationTaint(db),
    viewTrust: new ViewTrustStore(db),
    viewContext: new ViewContextStore(db),
    loadedTools: new LoadedToolStore(db),
    drafts: new DraftStore(db, history),
    tasks,
    skillApprovals: new SkillApprovalStore(db),
    skillsInUse: new SkillsInUseStore(db),
    audit: new AuditLog(db),
    close: () => {
      history.close();
      db.close();
    },
  };
}

/** Every pending request and its outcome is kept in the history, beside the conversation it belongs to. */
export function journaled(history: HistoryStore, listener: PendingListener): PendingListener {
  return {
    opened: (record) => {
      history.requests.record({ id: record.id, serverId: record.serverId, kind: record.kind, payload: record.payload, ...(record.conversationId ? { conversationId: record.conversationId } : {}) });
      listener.opened(record);
    },
    closed: (record, how, reason, outcome) => {
      if (how === 'settled') history.requests.settle(record.id, outcome);
      else history.requests.withdraw(record.id, reason ?? 'withdrawn');
      listener.closed(record, how, reason, outcome);
    },
  };
}

/**
 * Sampling uses the model of the conversation the server is serving, else the CLI's flags, else the
 * default: chosen like a chat message's (ModelResolver.resolveModel), at every request, so the model the
 * person sees in the picker and any change in Settings apply at once.
 */
export function samplingModels(
  history: HistoryStore,
  models: ModelResolver,
  settings: () => Readonly<ProviderSettings>,
  samplingChoice: ProviderChoice | undefined,
): (conversationId: string | undefined) => Promise<SamplingModels> {
  return async (conversationId) => {
    const conversation = conversationId ? history.getConversation(conversationId) : undefined;
    const flags = samplingChoice ?? {};
    // The flags' base URL still applies when the conversation was made with the flags' provider.
    const choice: ProviderChoice = conversation?.providerId
      ? { ...(flags.provider === conversation.providerId ? flags : {}), provider: conversation.providerId, ...(conversation.model ? { model: conversation.model } : {}) }
      : flags;
    const { config, model } = await models.resolveModel(choice);
    return { provider: models.makeProvider(config), defaultModel: model, ...(settings().modelTraits ? { traits: settings().modelTraits } : {}) };
  };
}
