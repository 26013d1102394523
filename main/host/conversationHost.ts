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
import { chooseProvider } from '../chat/providerSettings.ts';
import { createProvider } from '../chat/providers/createProvider.ts';
import type { Database } from '../store/database.ts';
import { openDatabase } from '../store/database.ts';
import { HistoryStore, historyMigrations } from '../store/historyStore.ts';
import type { SecretSource } from '../store/secrets.ts';
import { AuditLog, auditMigrations } from './approval/auditLog.ts';
import type { ApprovalMode } from './approval/grantLedger.ts';
import { GrantLedger, grantMigrations } from './approval/grantLedger.ts';
import type { SamplingBroker } from './brokers.ts';
import { RequestRefusedError } from './brokers.ts';
import { createConsentGate } from './consentGate.ts';
import type { PendingListener } from './pendingRequests.ts';
import { PendingRequests } from './pendingRequests.ts';
import type { SamplingPolicy } from './samplingBroker.ts';
import { createSamplingBroker } from './samplingBroker.ts';

export const DATABASE_FILE_NAME = 'atrium.db';

export interface ConversationHostOptions {
  home: string;
  /** ':memory:' for tests; the home's atrium.db otherwise. */
  databasePath?: string;
  approvalMode: ApprovalMode;
  samplingPolicy: SamplingPolicy;
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
}

export interface ConversationHost {
  db: Database;
  history: HistoryStore;
  ledger: GrantLedger;
  audit: AuditLog;
  pending: PendingRequests;
  chat: ChatService;
  /** Answers servers' sampling requests under the chosen policy. */
  sampling: SamplingBroker;
  close(): void;
}

export function openConversationHost(options: ConversationHostOptions): ConversationHost {
  const db = openDatabase(options.databasePath ?? join(options.home, DATABASE_FILE_NAME), [...historyMigrations, ...grantMigrations, ...auditMigrations]);
  const history = new HistoryStore(db);
  // A reply that was streaming when the process died is incomplete, not still streaming; calls and
  // requests that were waiting then are over.
  history.markInterruptedMessages();
  history.closeInterruptedWork();
  const ledger = new GrantLedger(db);
  const audit = new AuditLog(db);
  const pending = new PendingRequests(options.pendingListener);
  const makeProvider = options.makeProvider ?? ((config: ProviderConfig) => createProvider(config, options.secrets));
  const trusted = (serverId: string) => options.servers().some((s) => s.id === serverId && s.trusted);
  const gate = createConsentGate({
    ledger,
    audit,
    pending,
    mode: options.approvalMode,
    isTrusted: trusted,
    toolsOf: (serverId) => options.tools().filter((t) => t.serverId === serverId),
  });
  const chat = new ChatService({
    history,
    gate,
    runner: options.runner,
    validator: options.validator,
    secrets: options.secrets,
    settings: () => options.settings,
    tools: options.tools,
    onEvent: options.onTurnEvent,
    makeProvider,
  });
  return {
    db,
    history,
    ledger,
    audit,
    pending,
    chat,
    sampling: samplingBroker(options, makeProvider),
    close: () => {
      history.close();
      db.close();
    },
  };
}

/** The sampling broker is made on the first request, so a host without any provider still starts. */
function samplingBroker(options: ConversationHostOptions, makeProvider: (config: ProviderConfig) => LlmProvider): SamplingBroker {
  let broker: SamplingBroker | undefined;
  return {
    createMessage: async (request) => {
      if (options.samplingPolicy !== 'approve') throw new RequestRefusedError(`Sampling request from "${request.serverId}" was declined`);
      if (!broker) {
        const { config, model } = chooseProvider(options.settings, options.samplingChoice ?? {});
        broker = createSamplingBroker({
          policy: 'approve',
          provider: makeProvider(config),
          defaultModel: model,
          onChoice: (serverId, chosen, why) => options.log(serverId, `sampling with ${config.id}/${chosen}: ${why}`),
        });
      }
      return broker.createMessage(request);
    },
  };
}
