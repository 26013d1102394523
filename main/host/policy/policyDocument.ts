// An organisation's policy file, in the vocabulary of GitHub Copilot's managed settings (and Claude
// Code's): `deniedMcpServers` and `allowedMcpServers`, lists of entries that name a server by its name
// (`serverName`), its address (`serverUrl`, `*` matching anything) or its exact command line
// (`serverCommand`); and Atrium's `registryOnly` (only servers installed from a registry — `registryUrl`,
// when given, names the one), and `requireSandbox` (only servers that run in a sandbox). Other keys are
// left alone: the same file may carry settings for other programs. A file that cannot be read as a policy
// blocks every server until it is fixed: an unreadable rule must not be a rule skipped.

import { ownSchemaValidator } from '../../ownSchemas.ts';
import { jsonFileText, jsonProblem } from '../../../shared/jsonProblem.ts';

export type PolicyEntry = { serverName: string } | { serverUrl: string } | { serverCommand: string[] };

export interface PolicyDocument {
  allowedMcpServers?: PolicyEntry[];
  deniedMcpServers?: PolicyEntry[];
  registryOnly?: boolean;
  registryUrl?: string;
  requireSandbox?: boolean;
}

const entry = {
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['serverName'], properties: { serverName: { type: 'string', minLength: 1, maxLength: 200 } } },
    { type: 'object', additionalProperties: false, required: ['serverUrl'], properties: { serverUrl: { type: 'string', minLength: 1, maxLength: 4096 } } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['serverCommand'],
      properties: { serverCommand: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', maxLength: 10_000 } } },
    },
  ],
} as const;

/** The shape of a policy file (exported for ownSchemas.test.ts, which checks it against the meta-schema). */
export const policySchema = {
  type: 'object',
  properties: {
    allowedMcpServers: { type: 'array', maxItems: 10_000, items: entry },
    deniedMcpServers: { type: 'array', maxItems: 10_000, items: entry },
    registryOnly: { type: 'boolean' },
    registryUrl: { type: 'string', pattern: '^https?://', minLength: 8, maxLength: 4096 },
    requireSandbox: { type: 'boolean' },
  },
} as const;

const validate = ownSchemaValidator(policySchema, { allErrors: false, strict: false });

/** The policy a file holds, or why it cannot be read as one (in words, never a schema path alone). */
export function parsePolicy(bytes: Buffer): { policy: PolicyDocument } | { problem: string } {
  const problem = jsonProblem(bytes);
  if (problem) return { problem: `it is not valid JSON: ${problem}` };
  const data = JSON.parse(jsonFileText(bytes)) as unknown;
  if (!validate(data)) {
    // An entry that fits none of the three shapes: said as such, not as the first shape's missing key.
    const error = validate.errors?.find((e) => e.keyword === 'oneOf') ?? validate.errors?.[0];
    const where = error?.instancePath ? error.instancePath.replace(/^\//, '').replaceAll('/', '.').replace(/\.(\d+)(?=\.|$)/g, '[$1]') : 'the file';
    const what = error?.keyword === 'oneOf' ? 'must be an object with one of "serverName", "serverUrl" or "serverCommand" (a list of words)' : (error?.message ?? 'is not valid');
    return { problem: `${where} ${what}` };
  }
  return { policy: data as PolicyDocument };
}
