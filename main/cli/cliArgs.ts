// The command line: `atrium <command> [arguments] [options]`, options anywhere after the command.

import { jsonProblem } from '../../shared/jsonProblem.ts';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ATRIUM_VERSION } from '../app/atriumVersion.ts';
import type { ApprovalMode, SamplingPolicy } from '../app/hostCore.ts';
import type { ElicitationAnswer } from '../../shared/pendingPayloads.ts';
import { nearestWord } from '../../shared/nearestWord.ts';
import { readWordArguments } from './wordArguments.ts';

/** The longest time limit a Node timer holds (2^31 - 1 ms). */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

export const COMMANDS = ['servers', 'tools', 'call', 'resources', 'templates', 'read', 'prompts', 'prompt', 'skills', 'skill', 'trace', 'import', 'registry', 'install', 'chat', 'history', 'workspaces', 'sign-in', 'sign-out'] as const;
export type CommandName = (typeof COMMANDS)[number];

export interface CliInvocation {
  command: CommandName;
  args: string[];
  configPath?: string;
  json: boolean;
  timeoutMs?: number;
  roots: string[];
  workspace?: string;
  /** A fixed answer to every elicitation, or 'ask' on the terminal. */
  elicit: ElicitationAnswer | 'ask';
  server?: string;
  conversation?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** Given only with --approve: without it, the choice saved in Settings applies. */
  approve?: ApprovalMode;
  /** Given only with --sampling: without it, the choice saved in Settings applies. */
  sampling?: SamplingPolicy;
  secretsFile?: string;
  format: 'markdown' | 'json';
  /** `tools --search`: what to find, as the model's tool search would. */
  search?: string;
  /** How many results `tools --search` prints (1–20; default 8, as the model's search). */
  limit?: number;
  /** `trace --follow`: go on printing messages as they pass, until Ctrl+C. */
  follow: boolean;
  /** `servers add`: what the new server is (its command line, or its address). */
  newServer?: NewServer;
  /** `registry search`, `install`: the registry to ask (--registry). */
  registry?: string;
  /** `install`: the values the server asks for (--env KEY=VALUE; a key given twice: one value per line). */
  values?: Record<string, string>;
  /** `install FILE.mcpb`: the SHA-256 the bundle must have (--sha256). */
  sha256?: string;
  /** `read`: the file the resource's one content is saved to, as it is (--output). */
  output?: string;
}

/** A server as `atrium servers add` describes it: the command line that starts it, or the address it answers at. */
export type NewServer = { command: string; args: string[]; env: Record<string, string>; cwd?: string } | { url: string };

export class UsageError extends Error {}

/** A failure the person caused or can fix; printed as one line. */
export class CliFailure extends Error {}

export const USAGE = `usage: atrium <command> [arguments] [options]

commands:
  servers                          list configured servers and their status
  servers approve <server>         approve what a new or changed server runs (its command line or address), so it starts
  servers add <name> -- <command> [args...]   add a local server: the command line that starts it
                                   (--env NAME=value, repeatable; --cwd DIR: the folder it runs in)
  servers add <name> --url <address>          add a remote server
                                   an added server is not trusted, and asks for your approval before it first runs
  servers remove <name>            remove a server, and the secrets kept for it
  servers enable <name> | disable <name>   turn a server on or off, as the window's switch does
  tools --search "WORDS" [--limit N]  the tools the model's search finds for WORDS, ranked as the model gets them
  tools [--server S]               list tools (with their model-facing names); a tool its server changed
                                   since it was approved is marked, with what changed
  tools approve <server> <tool>    approve a changed tool's new definition (shown first), so the model gets it again
  call <server> <tool> [name=value...]  call a tool: its arguments as name=value words (typed as the
                                   tool says: a=1 is a number where it takes one) or one JSON object
  resources | templates | prompts  list resources, resource templates, prompts
  read <server> <uri> [--output FILE]   read a resource; --output saves it to FILE as it is (a binary one too), never over a file there
  prompt <server> <name> [name=value...]  get a prompt with arguments (or one JSON object)
  skills [--server S]              list servers' skills (from their listings: no skill file is read)
  skill <server> <name|uri> [file]  show a skill's SKILL.md (or one of its listed files), checked against its listing
  trace <server> [--follow]        the server's JSON-RPC messages, in and out, one line each (--json: JSON Lines
                                   with their contents, secrets redacted); --follow prints them as they pass, until Ctrl+C
  import <file>                    add the servers of a Claude Desktop / VS Code / Cursor config
  registry search <words...>       the MCP Registry's servers whose name, title or description hold every word
                                   (--registry URL; else ATRIUM_REGISTRY_URL, Settings, the official registry)
  install <name>[@<version>]       install a server from the registry: an exact version, never "latest"
                                   (--env KEY=VALUE for each variable, header or address part it asks for;
                                   a secret goes to Atrium's encrypted store; --registry URL)
  install <file.mcpb>              install an MCP bundle (--env SETTING=VALUE; --sha256 HEX to check the file)
                                   an installed server is not trusted, and asks for your approval before it first runs
  chat <message>                   send a message; the reply and tool calls stream to stdout
  history [--search "WORDS"]       list conversations (those whose title or messages hold WORDS, with where)
  history export <id>              export a conversation (--format markdown|json)
  workspaces                       list workspaces and their roots
  workspaces set <name> <dir>...   make or update a workspace with these folders as its roots
  workspaces use <name>            make a workspace the active one (its roots go to servers)
  workspaces remove <name>         delete a workspace that is not active
  sign-in <server>                 sign in to a remote server: prints its authorization page's address
                                   and waits for the browser to come back (10 minutes, or --timeout MS)
  sign-out <server>                revoke a remote server's tokens where its authorization server allows, and forget them

options:
  --config FILE      use this servers file instead of the stored one
  --json             machine-readable output
  --timeout MS       per-request and start-up time limit (sign-in: also how long to wait for the browser)
  --workspace NAME   use this workspace's roots (it becomes the active one; made if new)
  --root DIR         also expose DIR to servers as a root, for this run only (repeatable)
  --elicit ask|decline|cancel|accept:JSON   how to answer a server's elicitation: ask on the terminal (the default;
                                   without a terminal it is declined), or a fixed answer
  --server S         only this server (tools, resources, templates, prompts, skills)
  --help, --version  print this, or Atrium's version

chat options:
  --conversation ID  continue a conversation
  --provider P --model M --base-url U   the LLM (a providers.json id, or anthropic|openai|openai-compatible|openai-responses)
  --approve ask|ask-every|readonly|all|none   tool calls, this run: ask on the terminal when the policy says so, ask for every call, allow read-only ones, allow all, deny all (default: the choice saved in Settings, else ask)
  --sampling deny|ask|approve            servers' sampling requests, this run: refuse, ask on the terminal, or run a trusted server's without asking (others are asked) (default: the choice saved in Settings, else deny)
  --secrets FILE     a JSON file of {"secret name": "value"} (API keys); else ATRIUM_SECRET_<NAME>, ANTHROPIC_API_KEY, OPENAI_API_KEY`;

/**
 * What `atrium --help` (or `-h`) and `atrium --version` ask for, anywhere on the line; undefined for
 * anything else. Answered before the host is loaded, so both are instant.
 */
export function informationWanted(argv: readonly string[]): 'help' | 'version' | undefined {
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true, options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } } });
  const names = new Set(tokens.filter((token) => token.kind === 'option').map((token) => token.name));
  if (names.has('help')) return 'help';
  if (names.has('version')) return 'version';
  return undefined;
}

/** The text `atrium --help` or `atrium --version` prints, or undefined when the line asks for neither. */
export function informationAnswer(argv: readonly string[]): string | undefined {
  const wanted = informationWanted(argv);
  if (wanted === 'help') return USAGE;
  if (wanted === 'version') return `atrium ${ATRIUM_VERSION}`;
  return undefined;
}

/** Atrium's options, as parseArgs reads them (what each does: USAGE). */
const OPTIONS = {
  config: { type: 'string' },
  json: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  root: { type: 'string', multiple: true, default: [] as string[] },
  workspace: { type: 'string' },
  // Asked, as a tool approval is: a fixed answer nobody chose would speak for the person unseen.
  elicit: { type: 'string', default: 'ask' },
  server: { type: 'string' },
  search: { type: 'string' },
  url: { type: 'string' },
  env: { type: 'string', multiple: true, default: [] as string[] },
  registry: { type: 'string' },
  sha256: { type: 'string' },
  output: { type: 'string' },
  cwd: { type: 'string' },
  limit: { type: 'string' },
  follow: { type: 'boolean', default: false },
  conversation: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  approve: { type: 'string' },
  sampling: { type: 'string' },
  secrets: { type: 'string' },
  format: { type: 'string', default: 'markdown' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const;

export function parseCli(argv: readonly string[]): CliInvocation {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, tokens: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError(optionProblem(error as Error & { code?: string }, argv));
  }
  const { values, positionals, tokens } = parsed;
  const [command, ...args] = positionals;
  if (values.help || command === undefined) throw new UsageError('');
  if (!(COMMANDS as readonly string[]).includes(command)) {
    const meant = nearestWord(command.toLowerCase(), COMMANDS);
    throw new UsageError(meant ? `unknown command "${command}": did you mean "${meant}"?` : `unknown command "${command}"`);
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 20)) throw new UsageError(`--limit takes a whole number from 1 to 20, not "${values.limit}"`);
  if (values.search !== undefined && command !== 'tools' && command !== 'history') throw new UsageError('--search goes with the tools and history commands');
  if (limit !== undefined && command !== 'tools') throw new UsageError('--limit goes with "tools --search"');
  if (values.search !== undefined && values.search.trim() === '') throw new UsageError('--search needs words to search for');
  if (limit !== undefined && values.search === undefined) throw new UsageError('--limit goes with --search');
  if (values.follow && command !== 'trace') throw new UsageError('--follow goes with the trace command');
  if (values.output !== undefined && command !== 'read') throw new UsageError('--output goes with the read command');
  if (values.output !== undefined && values.json) throw new UsageError('--output saves the resource as it is: leave out --json');
  // The longest a Node timer waits: a larger limit would fail at once, in Node's words.
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > LONGEST_TIMEOUT_MS)) {
    throw new UsageError(`--timeout takes a whole number of milliseconds from 1 to ${LONGEST_TIMEOUT_MS} (about 24 days), not "${values.timeout}"`);
  }
  const invocation: CliInvocation = {
    command: command as CommandName,
    args,
    json: values.json,
    follow: values.follow,
    // In a terminal a folder is typed relative to where the person is; the host takes only whole paths.
    roots: values.root.map(wholePath),
    elicit: parseElicit(values.elicit),
    format: oneOf(values.format, ['markdown', 'json'] as const, '--format'),
    ...(values.approve !== undefined ? { approve: oneOf(values.approve, ['ask', 'ask-every', 'readonly', 'all', 'none'] as const, '--approve') } : {}),
    ...(values.sampling !== undefined ? { sampling: oneOf(values.sampling, ['deny', 'ask', 'approve'] as const, '--sampling') } : {}),
    ...(values.workspace !== undefined ? { workspace: values.workspace } : {}),
    ...(values.conversation !== undefined ? { conversation: values.conversation } : {}),
    ...(values.provider !== undefined ? { provider: values.provider } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
    ...(values.secrets !== undefined ? { secretsFile: values.secrets } : {}),
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(values.server !== undefined ? { server: values.server } : {}),
    ...(values.search !== undefined ? { search: values.search } : {}),
    ...(limit !== undefined ? { limit } : {}),
    // Saved where the person is, as any command line names a file.
    ...(values.output !== undefined ? { output: resolve(values.output) } : {}),
  };
  checkArity(invocation);
  const adding = command === 'servers' && args[0] === 'add';
  const installing = command === 'install';
  if (values.registry !== undefined && !installing && command !== 'registry') throw new UsageError('--registry goes with "registry search" and "install"');
  if (values.sha256 !== undefined && !(installing && isBundlePath(args[0] ?? ''))) throw new UsageError('--sha256 goes with "install FILE.mcpb"');
  if (values.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.sha256)) throw new UsageError(`--sha256 takes the file's SHA-256 as 64 hexadecimal digits, not "${values.sha256}"`);
  if (installing) {
    if (values.url !== undefined || values.cwd !== undefined) throw new UsageError('--url and --cwd go with "servers add"');
    invocation.values = installValues(values.env);
    if (values.registry !== undefined) invocation.registry = values.registry;
    if (values.sha256 !== undefined) invocation.sha256 = values.sha256.toLowerCase();
  } else if (command === 'registry' && values.registry !== undefined) invocation.registry = values.registry;
  if (!adding && !installing && (values.url !== undefined || values.env.length > 0 || values.cwd !== undefined)) throw new UsageError('--url, --env and --cwd go with "servers add"');
  if (adding) {
    // After `--` everything is the server's command line, however it looks.
    const terminator = tokens.find((token) => token.kind === 'option-terminator');
    const beforeTerminator = terminator ? tokens.filter((token) => token.kind === 'positional' && token.index < terminator.index).length : positionals.length;
    if (terminator && beforeTerminator !== 3) throw new UsageError('"servers add" takes <name> -- <command> [args...]: the name, then -- and the command line');
    invocation.newServer = newServer(args.slice(2), values);
  }
  return invocation;
}

/** A mistake in the options, as the person typed it and with what to type instead (Node's own words are about parsing). */
function optionProblem(error: Error & { code?: string }, argv: readonly string[]): string {
  const option = /^(?:Unknown option|Option) '(-[^' ]+)/.exec(error.message)?.[1];
  if (option === undefined) return error.message;
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    // A server's own option (npx -y) read as Atrium's: its command line goes after `--`.
    if (argv[0] === 'servers' && argv[1] === 'add') return `${option} is not an option of Atrium's: put the server's command line after --, as in atrium servers add NAME -- npx -y PACKAGE`;
    const meant = option.startsWith('--') ? nearestWord(option.slice(2), Object.keys(OPTIONS)) : undefined;
    // A tool's or a prompt's argument may have been written as an option: how they are written is said too.
    const asArgument =
      argv[0] === 'call' || argv[0] === 'prompt' ? `the ${argv[0] === 'call' ? "tool's" : "prompt's"} arguments are name=value words, as in atrium ${argv[0]} SERVER ${argv[0] === 'call' ? 'TOOL' : 'PROMPT'} name=value` : undefined;
    if (meant !== undefined) return `there is no option ${option}: did you mean --${meant}?${asArgument ? ` (${asArgument})` : ''}`;
    return `there is no option ${option}${asArgument ? `: ${asArgument}` : ''}`;
  }
  if (/argument missing/.test(error.message)) return `${option} needs a value after it, as in ${option} VALUE`;
  if (/does not take an argument/.test(error.message)) return `${option} takes no value: give it alone`;
  return error.message;
}

/** The server `servers add` describes: a command line (with --env and --cwd), or an address (--url). */
function newServer(commandLine: string[], values: { url?: string | undefined; env: string[]; cwd?: string | undefined }): NewServer {
  const [command, ...args] = commandLine;
  if (values.url !== undefined) {
    if (command !== undefined || values.env.length > 0 || values.cwd !== undefined) throw new UsageError('a server is either a command line (after --) or an address (--url), not both; --env and --cwd go with a command line');
    return { url: values.url };
  }
  if (command === undefined) throw new UsageError('"servers add" takes <name> -- <command> [args...] for a local server, or <name> --url <address> for a remote one');
  const env: Record<string, string> = {};
  for (const pair of values.env) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--env takes NAME=value, not "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { command, args, env, ...(values.cwd !== undefined ? { cwd: wholePath(values.cwd) } : {}) };
}

/** A bundle's file, as `install` tells it from a registry name: it ends in .mcpb. */
export function isBundlePath(argument: string): boolean {
  return /\.mcpb$/i.test(argument);
}

/** `--env KEY=VALUE` for `install`: a key given again adds a line (a bundle's setting that takes several). */
function installValues(pairs: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--env takes KEY=VALUE, not "${pair}"`);
    const key = pair.slice(0, at);
    values[key] = Object.hasOwn(values, key) ? `${values[key]}\n${pair.slice(at + 1)}` : pair.slice(at + 1);
  }
  return values;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} takes ${allowed.join(', ')}, not "${value}"`);
}

/** A folder as typed in a terminal (relative to where the person is) as the whole path the host takes; a file: URI as it is. */
export function wholePath(dir: string): string {
  return dir.startsWith('file:') ? dir : resolve(dir);
}

export function parseElicit(value: string): ElicitationAnswer | 'ask' {
  if (value === 'ask') return 'ask';
  if (value === 'decline' || value === 'cancel') return { action: value };
  if (value.startsWith('accept:')) {
    const content = parseJsonObject(value.slice('accept:'.length), '--elicit accept:');
    return { action: 'accept', content };
  }
  throw new UsageError(`--elicit takes ask, decline, cancel or accept:JSON, not "${value}"`);
}

export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${what} is not valid JSON: ${jsonProblem(Buffer.from(text, 'utf8'), 'the text') ?? 'it is not JSON'}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

const arity: Record<CommandName, [min: number, max: number, names: string]> = {
  servers: [0, Number.POSITIVE_INFINITY, '[approve <server> | add <name> -- <command> [args...] | add <name> --url <address> | remove <name> | enable <name> | disable <name>]'],
  tools: [0, 3, '[approve <server> <tool>]'],
  resources: [0, 0, ''],
  templates: [0, 0, ''],
  prompts: [0, 0, ''],
  call: [2, Number.POSITIVE_INFINITY, '<server> <tool> [name=value... | json-args]'],
  read: [2, 2, '<server> <uri>'],
  prompt: [2, Number.POSITIVE_INFINITY, '<server> <name> [name=value... | json-args]'],
  skills: [0, 0, ''],
  skill: [2, 3, '<server> <uri> [file]'],
  trace: [1, 1, '<server>'],
  import: [1, 1, '<file>'],
  registry: [2, Number.POSITIVE_INFINITY, 'search <words...>'],
  install: [1, 1, '<name>[@<version>] or <file.mcpb>'],
  chat: [1, 1, '<message>'],
  history: [0, 2, '[export <conversation id>]'],
  workspaces: [0, 257, '[set <name> <dir>... | use <name> | remove <name>]'],
  'sign-in': [1, 1, '<server>'],
  'sign-out': [1, 1, '<server>'],
};

/** The words that may follow a command that has them: any other first word is a slip, said before anything starts. */
const subcommands: Partial<Record<CommandName, readonly string[]>> = {
  servers: ['approve', 'add', 'remove', 'enable', 'disable'],
  tools: ['approve'],
  registry: ['search'],
  history: ['export'],
  workspaces: ['set', 'use', 'remove'],
};

function checkArity({ command, args }: CliInvocation): void {
  const [min, max, names] = arity[command];
  const [first] = args;
  const known = subcommands[command];
  if (known !== undefined && first !== undefined && !known.includes(first)) {
    const meant = nearestWord(first.toLowerCase(), known);
    throw new UsageError(meant ? `there is no "${command} ${first}": did you mean "${command} ${meant}"?` : `"${command}" takes ${names}`);
  }
  const serversArgs = args[0] === 'add' ? args.length >= 2 : ['approve', 'remove', 'enable', 'disable'].includes(args[0] ?? '') && args.length === 2;
  if (command === 'servers' && args.length > 0 && !serversArgs) throw new UsageError(`"servers" takes ${names}`);
  const wrongTools = command === 'tools' && args.length > 0 && (args[0] !== 'approve' || args.length !== 3);
  const wrongRegistry = command === 'registry' && args[0] !== 'search';
  if (args.length < min || args.length > max || wrongTools || wrongRegistry) {
    throw new UsageError(names ? `"${command}" takes ${names}` : `"${command}" takes no arguments`);
  }
  // How a call's or a prompt's arguments are typed is said before any server starts.
  if (command === 'call' || command === 'prompt') {
    const read = readWordArguments(args.slice(2), command === 'call' ? "the tool's" : "the prompt's");
    if ('problem' in read) throw new UsageError(read.problem);
  }
}
