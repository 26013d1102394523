// What an MCP Registry answers (API /v0.1, server.json schema 2025-12-11), read into typed records. A
// registry is untrusted: each entry is checked against the part of the schema Atrium uses, one that
// does not fit is left out (and counted), and the rest of the page still counts.

import { ownSchemaValidator } from '../../../ownSchemas.ts';
import { isRecord } from '../../../../shared/isRecord.ts';

/** A value an entry asks for or sets: an environment variable, a header, an argument, a URL variable. */
export interface RegistryInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
  variables?: Record<string, RegistryInput>;
}

export interface RegistryKeyValue extends RegistryInput {
  name: string;
}

export type RegistryArgument = (RegistryInput & { type: 'positional'; valueHint?: string; isRepeated?: boolean }) | (RegistryInput & { type: 'named'; name: string; isRepeated?: boolean });

export interface RegistryTransport {
  type: 'stdio' | 'streamable-http' | 'sse';
  url?: string;
  headers?: RegistryKeyValue[];
  variables?: Record<string, RegistryInput>;
}

export interface RegistryPackage {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: RegistryTransport;
  runtimeArguments?: RegistryArgument[];
  packageArguments?: RegistryArgument[];
  environmentVariables?: RegistryKeyValue[];
}

export interface RegistryServer {
  name: string;
  title?: string;
  description: string;
  version: string;
  websiteUrl?: string;
  repository?: { url?: string; source?: string };
  packages?: RegistryPackage[];
  remotes?: RegistryTransport[];
}

/** One version of one server as a registry lists it, with the registry's own word on it. */
export interface RegistryRecord {
  server: RegistryServer;
  status: 'active' | 'deprecated' | 'deleted';
  statusMessage?: string;
  isLatest?: boolean;
}

const text = { type: 'string', maxLength: 10_000 } as const;
const input = {
  type: 'object',
  properties: {
    description: text,
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    format: { enum: ['string', 'number', 'boolean', 'filepath'] },
    value: text,
    default: text,
    placeholder: text,
    choices: { type: 'array', maxItems: 1000, items: text },
    variables: { type: 'object', maxProperties: 100, additionalProperties: { type: 'object' } },
  },
} as const;
const keyValue = { allOf: [input, { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 1000 } } }] } as const;
const argument = {
  allOf: [
    input,
    {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['positional', 'named'] }, name: { type: 'string', minLength: 1, maxLength: 1000 }, valueHint: { type: 'string', maxLength: 1000 }, isRepeated: { type: 'boolean' } },
    },
  ],
} as const;
const transport = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['stdio', 'streamable-http', 'sse'] },
    url: { type: 'string', minLength: 1, maxLength: 4096 },
    headers: { type: 'array', maxItems: 100, items: keyValue },
    variables: { type: 'object', maxProperties: 100, additionalProperties: input },
  },
} as const;

/** The part of a server.json (2025-12-11) Atrium reads; exported for ownSchemas.test.ts. */
export const registryServerSchema = {
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    title: { type: 'string', maxLength: 100 },
    description: { type: 'string', maxLength: 1000 },
    version: { type: 'string', minLength: 1, maxLength: 255 },
    websiteUrl: { type: 'string', maxLength: 4096 },
    repository: { type: 'object', properties: { url: { type: 'string', maxLength: 4096 }, source: { type: 'string', maxLength: 100 } } },
    packages: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        required: ['registryType', 'identifier', 'transport'],
        properties: {
          registryType: { type: 'string', minLength: 1, maxLength: 50 },
          registryBaseUrl: { type: 'string', maxLength: 4096 },
          identifier: { type: 'string', minLength: 1, maxLength: 4096 },
          version: { type: 'string', minLength: 1, maxLength: 255 },
          fileSha256: { type: 'string', pattern: '^[a-f0-9]{64}$' },
          runtimeHint: { type: 'string', maxLength: 100 },
          transport,
          runtimeArguments: { type: 'array', maxItems: 200, items: argument },
          packageArguments: { type: 'array', maxItems: 200, items: argument },
          environmentVariables: { type: 'array', maxItems: 200, items: keyValue },
        },
      },
    },
    remotes: { type: 'array', maxItems: 50, items: transport },
  },
} as const;

const validateServer = ownSchemaValidator(registryServerSchema, { allErrors: false, strict: false });
const validateInput = ownSchemaValidator(input, { allErrors: false, strict: false });

const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/** One item of a list (or the answer for one version): the record, or undefined when it does not fit the schema. */
export function readRecord(item: unknown): RegistryRecord | undefined {
  if (!isRecord(item) || !validateServer(item.server) || !variablesFit(item.server)) return undefined;
  const meta = isRecord(item._meta) && isRecord(item._meta[OFFICIAL_META]) ? item._meta[OFFICIAL_META] : {};
  const status = meta.status === 'deprecated' || meta.status === 'deleted' ? meta.status : 'active';
  const statusMessage = typeof meta.statusMessage === 'string' && meta.statusMessage.trim() !== '' ? meta.statusMessage.slice(0, 500) : undefined;
  return {
    server: item.server as unknown as RegistryServer,
    status,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
    ...(typeof meta.isLatest === 'boolean' ? { isLatest: meta.isLatest } : {}),
  };
}

/** A page of `GET /v0.1/servers`: its records, how many did not fit, and the cursor of the next page. */
export function readPage(body: unknown): { records: RegistryRecord[]; skipped: number; nextCursor?: string } | undefined {
  if (!isRecord(body) || !Array.isArray(body.servers)) return undefined;
  const records: RegistryRecord[] = [];
  let skipped = 0;
  for (const item of body.servers) {
    const record = readRecord(item);
    if (record) records.push(record);
    else skipped++;
  }
  const metadata = isRecord(body.metadata) ? body.metadata : {};
  const cursor = metadata.nextCursor ?? metadata.next_cursor;
  return { records, skipped, ...(typeof cursor === 'string' && cursor !== '' ? { nextCursor: cursor } : {}) };
}

/** The variables maps of an entry's inputs are inputs too (the schema above checks them one level down). */
function variablesFit(server: unknown): boolean {
  const inputs: unknown[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (isRecord(value)) {
      if (isRecord(value.variables)) inputs.push(...Object.values(value.variables));
      Object.values(value).forEach(collect);
    }
  };
  collect(server);
  return inputs.every((value) => validateInput(value));
}

