// What each kind of pending request shows the person, and the answer it takes. The host builds the
// payloads (main/host/consentGate, elicitation/, sampling/); front ends render them and answer through
// `respondPending`. Text in a payload that came from a server is untrusted. Each answer's shape is
// defined once, as the JSON Schema the host checks it against (main/host/pendingOutcomes.ts); its type
// is derived from that schema.

import type { FromSchema } from 'json-schema-to-ts';
import type { ToolSummary } from './domain.ts';
import type { SkillAnswer, SkillQuestion } from '../main/mcp/extensions/skills/contract/skillViews.ts';
import { skillAnswerSchema } from '../main/mcp/extensions/skills/contract/skillViews.ts';

// ── tool approval ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Content in a conversation that Atrium does not trust: text a server the person does not trust wrote (a
 * tool's result, a resource they attached, a prompt, what a view reported), or what a trusted server's
 * open-world tool read from beyond the computer. It may carry instructions aimed at the model.
 */
export interface UntrustedSource {
  serverId: string;
  /** How it reached the model. */
  kind: 'tool' | 'resource' | 'prompt' | 'view' | 'skill';
  /** The tool, the resource's URI, the prompt, the tool whose view reported it, or the skill's name. */
  name: string;
  why: 'untrusted' | 'open-world';
}

/** One of the server's tools as a server-wide answer would cover it. */
export interface ToolReach {
  name: string;
  /** It declares it only reads: "its read-only tools" covers it. */
  readOnly: boolean;
  /** It declares it deletes nothing and stays on this computer: an allow keeps deciding after untrusted content. */
  keepsAfterUntrusted: boolean;
}

/** Another call the model asked for in the same step that asks too: the person may answer them together. */
export interface AlongsideCall {
  callId: string;
  tool: ToolSummary;
  arguments: Record<string, unknown>;
  elevated: boolean;
  /** Untrusted content in the conversation is why it asks. */
  raised: boolean;
}

export interface ToolApprovalPayload {
  tool: ToolSummary;
  arguments: Record<string, unknown>;
  /** Whether the server's annotations were believed (only for servers the person trusts). */
  annotationsTrusted: boolean;
  /** Destructive and open-world: ask with a stronger warning. */
  elevated: boolean;
  reason: string;
  /** The conversation holds content Atrium does not trust: the first such content, named. */
  untrustedContent?: UntrustedSource;
  /**
   * That content is why this call asks, whatever was allowed before: the tool may delete things or reach
   * beyond the computer, so in this conversation only this once can be allowed.
   */
  raisedBy?: UntrustedSource;
  /**
   * Whether an allow for this tool ("in this conversation", "always") keeps deciding once a conversation
   * holds untrusted content: only for a tool that declares it deletes nothing and stays on this computer.
   */
  keepsAfterUntrusted: boolean;
  /** The server's tools as it lists them now: what "its read-only tools" and "every tool" would cover. */
  serverTools: ToolReach[];
  /** The model's other calls of this step that ask too, listed so they can be answered together. */
  alongside?: AlongsideCall[];
  /** MCP Apps: the call is asked by the view of this tool (the person clicked in it), not by the model. */
  fromView?: { serverId: string; tool: string };
}

/** The grant covers this tool, the server's read-only tools, or (`target: 'server'`) every tool the server lists now. */
export type ToolApprovalAnswer = FromSchema<typeof toolApprovalOutcomeSchema>;
export type GrantScopeAnswer = ToolApprovalAnswer['scope'];

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

export type ElicitationAnswer = FromSchema<typeof elicitationOutcomeSchema>;

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

export type SamplingRequestAnswer = FromSchema<typeof samplingRequestOutcomeSchema>;

export interface SamplingResultPayload {
  stage: 'result';
  /** The provider that ran it, and the model that answered (as its API said, when it said another than the one asked for). */
  provider: string;
  model: string;
  /** Why that model: Atrium's choice and its reason, the person's pick, or what the API answered with. */
  why: string;
  text: string;
  stopReason: string;
}

export type SamplingResultAnswer = FromSchema<typeof samplingResultOutcomeSchema>;

export type SamplingPayload = SamplingRequestPayload | SamplingResultPayload;

// ── the answers' shapes ─────────────────────────────────────────────────────────────────────────────

/**
 * Allow or deny one tool call: once; together with the other calls of its step that were listed (`step`,
 * each once); for the conversation; or always. A lasting answer covers this tool, the server's read-only
 * tools, or every tool the server lists now.
 */
export const toolApprovalOutcomeSchema = {
  type: 'object',
  required: ['effect', 'scope', 'target'],
  properties: {
    effect: { enum: ['allow', 'deny'] },
    scope: { enum: ['once', 'step', 'conversation', 'always'] },
    target: { enum: ['tool', 'read-only-tools', 'server'] },
  },
  additionalProperties: false,
} as const;

const samplingMessage = {
  type: 'object',
  required: ['role', 'text'],
  properties: { role: { enum: ['user', 'assistant'] }, text: { type: 'string', maxLength: 1_000_000 } },
  additionalProperties: false,
} as const;

/** Approve (optionally edited) or reject a server's sampling request, before any model runs. */
export const samplingRequestOutcomeSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['action'],
      properties: {
        action: { const: 'approve' },
        /** Replaces the request's messages (text only: what a person can edit in a dialog). */
        messages: { type: 'array', minItems: 1, maxItems: 1000, items: samplingMessage },
        systemPrompt: { type: 'string', maxLength: 1_000_000 },
        maxTokens: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        model: { type: 'string', minLength: 1, maxLength: 200 },
        /** The person's explicit consent to the context the server asked for (includeContext). */
        shareContext: { type: 'boolean' },
      },
      additionalProperties: false,
    },
    { type: 'object', required: ['action'], properties: { action: { const: 'reject' } }, additionalProperties: false },
  ],
} as const;

/** Send (optionally edited) or withhold the model's reply, after the person has read it. */
export const samplingResultOutcomeSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['action'],
      properties: { action: { const: 'send' }, text: { type: 'string', maxLength: 1_000_000 } },
      additionalProperties: false,
    },
    { type: 'object', required: ['action'], properties: { action: { const: 'reject' } }, additionalProperties: false },
  ],
} as const;

export const elicitationOutcomeSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['action'],
      properties: { action: { const: 'accept' }, content: { type: 'object' } },
      additionalProperties: false,
    },
    { type: 'object', required: ['action'], properties: { action: { enum: ['decline', 'cancel'] } }, additionalProperties: false },
  ],
} as const;

// ── the request as a front end sees it ───────────────────────────────────────────────────────────────

interface PendingBase {
  id: string;
  serverId: string;
  conversationId?: string;
  /** The server asks for one of the tasks Atrium follows (MCP Tasks): its dialog names it. */
  task?: { taskId: string; tool: string };
  createdAt: number;
}

/** A request waiting for the person, by kind: what to show (server-provided text in it is untrusted). */
export type PendingRequestView =
  | (PendingBase & { kind: 'tool_approval'; payload: ToolApprovalPayload })
  | (PendingBase & { kind: 'sampling'; payload: SamplingPayload })
  | (PendingBase & { kind: 'elicitation'; payload: ElicitationPayload })
  /** Skills: a skill asks to be used, or one in use asks to read a file on another server. */
  | (PendingBase & { kind: 'skill'; payload: SkillQuestion });

export type PendingKind = PendingRequestView['kind'];
export type PendingOf<K extends PendingKind> = Extract<PendingRequestView, { kind: K }>;

/** Every answer a pending request can take: what `respondPending` checks at the door (the host then checks it fits the request's kind). */
export const pendingAnswerSchema = {
  anyOf: [toolApprovalOutcomeSchema, samplingRequestOutcomeSchema, samplingResultOutcomeSchema, elicitationOutcomeSchema, skillAnswerSchema],
} as const;
export type PendingAnswer = ToolApprovalAnswer | SamplingRequestAnswer | SamplingResultAnswer | ElicitationAnswer | SkillAnswer;
