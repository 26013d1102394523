// What each kind of pending request shows the person, and the answer it takes. The host builds the
// payloads (main/host/consentGate, elicitation/, sampling/); front ends render them and answer through
// `respondPending`. Text in a payload that came from a server is untrusted. The host checks every
// answer against these shapes (main/host/pendingOutcomes.ts) before it acts on it.

import type { ToolSummary } from './domain.ts';

// ── tool approval ─────────────────────────────────────────────────────────────────────────────────────

export interface ToolApprovalPayload {
  tool: ToolSummary;
  arguments: Record<string, unknown>;
  /** Whether the server's annotations were believed (only for servers the person trusts). */
  annotationsTrusted: boolean;
  /** Destructive and open-world: ask with a stronger warning. */
  elevated: boolean;
  reason: string;
  /**
   * The conversation has read content from this tool (open-world, or of an untrusted server), so this
   * call asks whatever was allowed before: only this once can be allowed.
   */
  raisedBy?: { serverId: string; tool: string };
}

export type GrantScopeAnswer = 'once' | 'conversation' | 'always';

export interface ToolApprovalAnswer {
  effect: 'allow' | 'deny';
  scope: GrantScopeAnswer;
  /** The grant covers this tool, or every tool the server lists now. */
  target: 'tool' | 'server';
}

// ── elicitation ───────────────────────────────────────────────────────────────────────────────────────

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';

/** One field of a form as a dialog shows it. */
export interface FormField {
  name: string;
  kind: FieldKind;
  title?: string;
  description?: string;
  required: boolean;
  default?: unknown;
  format?: string;
  options?: { value: string; label: string }[];
  /** The field seems to ask for a password, key or token: show it masked, and warn. */
  secretLooking: boolean;
}

export interface ElicitationFormPayload {
  mode: 'form';
  message: string;
  fields: FormField[];
  requestedSchema: object;
  /** Some field seems to ask for a credential, which the specification forbids in a form. */
  asksForSecrets: boolean;
}

/** The full address and, apart, the domain it really goes to (punycode for look-alike names). */
export interface ElicitationUrlPayload {
  mode: 'url';
  message: string;
  url: string;
  domain: string;
  elicitationId?: string;
}

export type ElicitationPayload = ElicitationFormPayload | ElicitationUrlPayload;

export type ElicitationAnswer = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

// ── sampling ──────────────────────────────────────────────────────────────────────────────────────────

export interface SamplingRequestPayload {
  stage: 'request';
  messages: { role: 'user' | 'assistant'; text: string; attachments: string[] }[];
  systemPrompt?: string;
  maxTokens: number;
  modelPreferences?: {
    hints?: { name?: string }[];
    costPriority?: number;
    speedPriority?: number;
    intelligencePriority?: number;
  };
  includeContext: 'none' | 'thisServer' | 'allServers';
  /** Whether there is a conversation to draw that context from (a tool call of this server is running). */
  contextAvailable: boolean;
  provider: string;
  model: string;
  why: string;
  models: string[];
}

export type SamplingRequestAnswer =
  | { action: 'reject' }
  | { action: 'approve'; messages?: { role: 'user' | 'assistant'; text: string }[]; systemPrompt?: string; maxTokens?: number; model?: string; shareContext?: boolean };

export interface SamplingResultPayload {
  stage: 'result';
  model: string;
  text: string;
  stopReason: string;
}

export type SamplingResultAnswer = { action: 'reject' } | { action: 'send'; text?: string };

export type SamplingPayload = SamplingRequestPayload | SamplingResultPayload;
