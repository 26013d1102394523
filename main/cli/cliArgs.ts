// The command line: `atrium <command> [arguments] [options]`, options anywhere after the command.

import { parseArgs } from 'node:util';
import type { ElicitationAnswer } from '../host/brokers.ts';

export const COMMANDS = ['servers', 'tools', 'call', 'resources', 'templates', 'read', 'prompts', 'prompt', 'import'] as const;
export type CommandName = (typeof COMMANDS)[number];

export interface CliInvocation {
  command: CommandName;
  args: string[];
  configPath?: string;
  json: boolean;
  timeoutMs?: number;
  roots: string[];
  elicit: ElicitationAnswer;
  server?: string;
}

export class UsageError extends Error {}

export const USAGE = `usage: atrium <command> [arguments] [options]

commands:
  servers                          list configured servers and their status
  tools [--server S]               list tools (with their model-facing names)
  call <server> <tool> [json-args] call a tool
  resources | templates | prompts  list resources, resource templates, prompts
  read <server> <uri>              read a resource
  prompt <server> <name> [json]    get a prompt with arguments
  import <file>                    add the servers of a Claude Desktop / VS Code / Cursor config

options:
  --config FILE      use this servers file instead of the stored one
  --json             machine-readable output
  --timeout MS       per-request and start-up time limit
  --root DIR         expose DIR to servers as a root (repeatable)
  --elicit decline|cancel|accept:JSON   how to answer a server's elicitation (default: decline)
  --server S         only this server (tools, resources, templates, prompts)`;

export function parseCli(argv: readonly string[]): CliInvocation {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: 'string' },
        json: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        root: { type: 'string', multiple: true, default: [] },
        elicit: { type: 'string', default: 'decline' },
        server: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  if (values.help || command === undefined) throw new UsageError('');
  if (!(COMMANDS as readonly string[]).includes(command)) throw new UsageError(`unknown command "${command}"`);
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0)) throw new UsageError(`--timeout takes a whole number of milliseconds, not "${values.timeout}"`);
  const invocation: CliInvocation = {
    command: command as CommandName,
    args,
    json: values.json,
    roots: values.root,
    elicit: parseElicit(values.elicit),
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(values.server !== undefined ? { server: values.server } : {}),
  };
  checkArity(invocation);
  return invocation;
}

export function parseElicit(value: string): ElicitationAnswer {
  if (value === 'decline' || value === 'cancel') return { action: value };
  if (value.startsWith('accept:')) {
    const content = parseJsonObject(value.slice('accept:'.length), '--elicit accept:');
    return { action: 'accept', content };
  }
  throw new UsageError(`--elicit takes decline, cancel or accept:JSON, not "${value}"`);
}

export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

const arity: Record<CommandName, [min: number, max: number, names: string]> = {
  servers: [0, 0, ''],
  tools: [0, 0, ''],
  resources: [0, 0, ''],
  templates: [0, 0, ''],
  prompts: [0, 0, ''],
  call: [2, 3, '<server> <tool> [json-args]'],
  read: [2, 2, '<server> <uri>'],
  prompt: [2, 3, '<server> <name> [json-args]'],
  import: [1, 1, '<file>'],
};

function checkArity({ command, args }: CliInvocation): void {
  const [min, max, names] = arity[command];
  if (args.length < min || args.length > max) {
    throw new UsageError(names ? `"${command}" takes ${names}` : `"${command}" takes no arguments`);
  }
}
