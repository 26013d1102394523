// The one check of a tool call's arguments against the tool's input schema, made before the call
// reaches the server: by the agent loop for a model's call (before the person is asked to approve it)
// and by the API for a person's direct call (the CLI's `atrium call`, the window's tool runner).
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';

/** Arguments that do not fit the tool; the server never saw them. */
export class InvalidToolArgumentsError extends Error {
  readonly code = 'invalid_params';
}

/** Why `args` do not fit `inputSchema`, or undefined when they do. */
export function toolArgumentsProblem(validator: jsonSchemaValidator, inputSchema: unknown, args: Record<string, unknown>): string | undefined {
  // A null for an optional parameter is how many clients and models say "not given", and the transport
  // rules treat null and omitted alike (no Mcp-Param header): it is checked as omitted, and sent as given.
  const required = new Set((inputSchema as { required?: unknown }).required instanceof Array ? ((inputSchema as { required: unknown[] }).required) : []);
  const checked = Object.fromEntries(Object.entries(args).filter(([name, value]) => value !== null || required.has(name)));
  const check = validator.getValidator(inputSchema as Parameters<jsonSchemaValidator['getValidator']>[0])(checked);
  if (check.valid) return undefined;
  // The validator calls the value "data"; here it is the call's arguments ("arguments/a must be number").
  return (check.errorMessage ?? 'they do not match').replace(/(^|, )data(?=[/ ]|$)/g, '$1arguments');
}
