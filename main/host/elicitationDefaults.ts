// SEP-1034: a field of an elicitation form may carry a `default`. A person who accepts a form without
// touching such a field accepts its default, so the answer the server gets carries the value. The host
// wraps whichever broker the front end gave it, so every front end (dialog, CLI flag) behaves the same.

import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationBroker, ElicitationParams } from './brokers.ts';

type ElicitContent = NonNullable<ElicitResult['content']>;

/** The broker, with every omitted field that has a schema default filled in on accept. */
export function withElicitationDefaults(broker: ElicitationBroker): ElicitationBroker {
  return { elicit: async (request) => applyElicitationDefaults(request.params, await broker.elicit(request)) };
}

export function applyElicitationDefaults(params: ElicitationParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || !('requestedSchema' in params)) return result;
  const properties: Record<string, { default?: unknown }> = params.requestedSchema.properties;
  const content: ElicitContent = { ...result.content };
  let filled = false;
  for (const [field, schema] of Object.entries(properties)) {
    if (content[field] !== undefined || schema.default === undefined) continue;
    content[field] = schema.default as ElicitContent[string];
    filled = true;
  }
  return filled ? { ...result, content } : result;
}
