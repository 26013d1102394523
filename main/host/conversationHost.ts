// The conversation side of the host: the SQLite file, the history, the grant ledger and audit log, the
// pending requests a person settles, the consent gate and the chat service. The MCP side is reached
// only through the functions passed in, so this module never holds a connection.

import { join } from 'node:path';
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { ServerSnapshot, ToolSummary } from '../../shared/domain.ts';
import type { ToolRunner, TurnEvent } from '../chat/agentLoop.ts';
import { ChatService } from '../chat/chatService.ts';
import type { LlmProvider, ProviderConfig } from '../chat/llmTypes.ts';
import type { ProviderChoice, ProviderSettings } from '../chat/providerSettings.ts';
import { createProvider } from '../chat/providers/createProvider.ts';
import type { Database } from '../store/database.ts';
import { openDatabase } from '../store/database.ts';
import { HistoryStore, historyMigrations } from '../store/historyStore.ts';
import { workspaceMigrations } from '../store/workspaceStore.ts';
import type { SecretSource } from '../store/secrets.ts';
import { AuditLog, auditMigrations } from './approval/auditLog.ts';
import type { ApprovalRunOptions, LiveApprovals } from './approval/approvalChoices.ts';
import { liveApprovals } from './approval/approvalChoices.ts';
import { GrantLedger, grantMigrations } from './approval/grantLedger.ts';
import { ConversationTaint, taintMigrations } from './approval/conversationTaint.ts';
import { ToolPins, toolPinMigrations } from './approval/toolPins.ts';
import type { ElicitationBroker, SamplingBroker } from '../mcp/connection/connectionServices.ts';
import { createConsentGate } from './consentGate.ts';
import type { PendingListener } from './pendingRequests.ts';
import { PendingRequests } from './pendingRequests.ts';
import { createPersonElicitation } from './elicitation/personElicitation.ts';
import type { SamplingModels } from './sampling/samplingBroker.ts';
import { createSamplingBroker } from './sampling/samplingBroker.ts';
import { conversationContext } from './sampling/samplingContext.ts';
import { ServerActivity } from './serverActivity.ts';

export const DATABASE_FILE_NAME = 'atrium.db';

export interface ConversationHostOptions {
  home: string;
  /** ':memory:' for tests; the home's atrium.db otherwise. */
  databasePath?: string;
  /** This run's own tool-call mode and sampling policy, if any, and sampling's default; else the saved choices. */
  approvals: ApprovalRunOptions;
  /** The provider and model sampling uses (the CLI's flags); the settings' default otherwise. */
  samplingChoice?: ProviderChoice;
  secrets: SecretSource;
  settings: ProviderSettings;
  validator: jsonSchemaValidator;
  makeProvider?: (config: ProviderConfig) => LlmProvider;
  tools(): ToolSummary[];
  servers(): ServerSnapshot[];
  runner: ToolRunner;
  pendingListener: PendingListener;
  onTurnEvent(conversationId: string, event: TurnEvent): void;
  log(serverId: string, text: string): void;
  /** Opens a URL the person agreed to open from a server's URL elicitation. */
  openUrl(url: string, serverId: string): void;
}

export interface ConversationHost {
  db: Database;
  /** The live provider settings every turn reads: a change made in place applies to the next turn. */
  settings: ProviderSettings;
  /** How the next tool call and sampling request are approved, read from the live settings each time. */
  approvals: LiveApprovals;
  history: HistoryStore;
  ledger: GrantLedger;
  /** Every tool's definition as first seen or last approved: a tool that changed is withheld. */
  pins: ToolPins;
  /** Which conversations have read untrusted content. */
  taint: ConversationTaint;
  audit: AuditLog;
  pending: PendingRequests;
  chat: ChatService;
  /** Answers servers' sampling requests under the chosen policy, asking the person through pending records. */
  sampling: SamplingBroker;
  /** Puts servers' elicitations to the person through pending records. */
  elicitation: ElicitationBroker;
  close(): void;
}

export function openConversationHost(options: ConversationHostOptions): ConversationHost {
  const db = openDatabase(options.databasePath ?? join(options.home, DATABASE_FILE_NAME), [
    ...historyMigrations,
    ...grantMigrations,
    ...auditMigrations,
    ...workspaceMigrations,
    ...toolPinMigrations,
    ...taintMigrations,
  ]);
  const history = new HistoryStore(db);
  // A reply that was streaming when the process died is incomplete, not still streaming; calls and
  // requests that were waiting then are over.
  history.markInterruptedMessages();
  history.closeInterruptedWork();
  const ledger = new GrantLedger(db);
  const pins = new ToolPins(db);
  const taint = new ConversationTaint(db);
  const audit = new AuditLog(db);
  const pending = new PendingRequests(journaled(history, options.pendingListener));
  const makeProvider = options.makeProvider ?? ((config: ProviderConfig) => createProvider(config, options.secrets));
  const activity = new ServerActivity();
  const trusted = (serverId: string) => options.servers().some((s) => s.id === serverId && s.trusted);
  const approvals = liveApprovals(options.settings, options.approvals);
  const gate = createConsentGate({
    ledger,
    audit,
    pending,
    taint,
    mode: approvals.toolMode,
    isTrusted: trusted,
    toolsOf: (serverId) => options.tools().filter((t) => t.serverId === serverId),
  });
  const chat = new ChatService({
    history,
    gate,
    runner: activity.track(options.runner),
    validator: options.validator,
    secrets: options.secrets,
    settings: () => options.settings,
    tools: options.tools,
    onEvent: options.onTurnEvent,
    makeProvider,
  });
  return {
    db,
    settings: options.settings,
    approvals,
    history,
    ledger,
    pins,
    taint,
    audit,
    pending,
    chat,
    sampling: createSamplingBroker({
      policy: approvals.samplingPolicy,
      pending,
      models: samplingModels(options, history, chat, makeProvider),
      isTrusted: trusted,
      conversationFor: (serverId) => activity.conversationFor(serverId),
      context: (conversationId, serverId, scope) => conversationContext(history, conversationId, serverId, scope),
      onChoice: (serverId, model, why) => options.log(serverId, `sampling with ${model}: ${why}`),
    }),
    elicitation: createPersonElicitation({ pending, conversationFor: (serverId) => activity.conversationFor(serverId), openUrl: options.openUrl }),
    close: () => {
      history.close();
      db.close();
    },
  };
}

/** Every pending request and its outcome is kept in the history, beside the conversation it belongs to. */
function journaled(history: HistoryStore, listener: PendingListener): PendingListener {
  return {
    opened: (record) => {
      history.recordPendingRequest({ id: record.id, serverId: record.serverId, kind: record.kind, payload: record.payload, ...(record.conversationId ? { conversationId: record.conversationId } : {}) });
      listener.opened(record);
    },
    closed: (record, how, reason, outcome) => {
      if (how === 'settled') history.settlePendingRequest(record.id, outcome);
      else history.withdrawPendingRequest(record.id, reason ?? 'withdrawn');
      listener.closed(record, how, reason, outcome);
    },
  };
}

/**
 * Sampling uses the model of the conversation the server is serving, else the CLI's flags, else the
 * default: chosen like a chat message's (ChatService.resolveModel), at every request, so the model the
 * person sees in the picker and any change in Settings apply at once.
 */
function samplingModels(options: ConversationHostOptions, history: HistoryStore, chat: ChatService, makeProvider: (config: ProviderConfig) => LlmProvider): (conversationId: string | undefined) => Promise<SamplingModels> {
  return async (conversationId) => {
    const conversation = conversationId ? history.getConversation(conversationId) : undefined;
    const flags = options.samplingChoice ?? {};
    // The flags' base URL still applies when the conversation was made with the flags' provider.
    const choice: ProviderChoice = conversation?.providerId
      ? { ...(flags.provider === conversation.providerId ? flags : {}), provider: conversation.providerId, ...(conversation.model ? { model: conversation.model } : {}) }
      : flags;
    const { config, model } = await chat.resolveModel(choice);
    return { provider: makeProvider(config), defaultModel: model, ...(options.settings.modelTraits ? { traits: options.settings.modelTraits } : {}) };
  };
}
