// The contract's section for what servers offer besides tools: resources, templates, prompts and completions.
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { PromptSummary, ResourceSummary, ResourceTemplateSummary, ServerId } from '../domain.ts';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { ParamsSchema } from './schemaParts.ts';
import { serverId, shortText, serverFilter, serverAndUri, stringMap } from './schemaParts.ts';

export type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export interface CompletionReference {
  type: 'ref/prompt' | 'ref/resource';
  /** The prompt's name for `ref/prompt`, the template's URI for `ref/resource`. */
  name: string;
}

export interface CompletionAnswer {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** What each request of this section resolves with; its params are its schema's (`serverOffersRequests`). */
export interface ServerOffersResults {
  listResources: ResourceSummary[];
  listResourceTemplates: ResourceTemplateSummary[];
  listPrompts: PromptSummary[];
  readResource: ReadResourceResult;
  subscribeResource: null;
  unsubscribeResource: null;
  getPrompt: GetPromptResult;
  complete: CompletionAnswer;
}

export interface ServerOffersEvents {
  listChanged: { serverId: ServerId; list: ListKind };
  resourceUpdated: { serverId: ServerId; uri: string };
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const serverOffersRequests = {
  listResources: serverFilter,
  listResourceTemplates: serverFilter,
  listPrompts: serverFilter,
  readResource: serverAndUri,
  subscribeResource: serverAndUri,
  unsubscribeResource: serverAndUri,
  getPrompt: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'name'],
    properties: { serverId, name: { type: 'string', minLength: 1, maxLength: 512 }, arguments: stringMap },
  },
  complete: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'ref', 'argument'],
    properties: {
      serverId,
      ref: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'name'],
        properties: { type: { enum: ['ref/prompt', 'ref/resource'] }, name: shortText },
      },
      argument: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'value'],
        properties: { name: shortText, value: shortText },
      },
      context: stringMap,
    },
  },
} as const satisfies { readonly [K in keyof ServerOffersResults]: ParamsSchema };

/** A record rather than a list, so an event added to ServerOffersEvents but not here fails the type-check. */
export const serverOffersEvents: { readonly [K in keyof ServerOffersEvents]: true } = {
  listChanged: true,
  resourceUpdated: true,
};
