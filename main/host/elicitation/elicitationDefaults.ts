// SEP-1034: a field of an elicitation form may carry a `default`. A person who accepts a form without
// touching such a field accepts its default, so the answer the server gets carries the value. Both the
// person's dialog (personElicitation) and fixed answers (checkedElicitation) apply them.

import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationParams } from '../../mcp/connection/connectionServices.ts';

type ElicitContent = NonNullable<ElicitResult['content']>;

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
