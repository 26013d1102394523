// What a command that lists or uses what servers offer answers, once the host has started them: the
// tools (and a tool change approved), resources, templates, prompts, skills, a call, a read, a prompt's
// messages. Printed for a person, or as JSON with --json; the exit code says whether it went well.

import { nearestWord } from '../../shared/nearestWord.ts';
import { open, rm } from 'node:fs/promises';
import type { JsonObject } from '../../shared/contract.ts';
import { safeJson } from '../../shared/serverText.ts';
import type { RunningHost } from '../app/hostCore.ts';
import type { CliInvocation } from './cliArgs.ts';
import { CliFailure } from './cliArgs.ts';
import { readWordArguments } from './wordArguments.ts';
import type { ArgumentsOf } from './wordArguments.ts';
import * as format from './formatOutput.ts';
import { formatShownSkill, formatSkills } from './skillsOutput.ts';

/** Where the answer goes: standard output, and standard error for notes beside JSON and failures. */
export interface AnswerIo {
  out(text: string): void;
  err(text: string): void;
}

export async function answerCommand(invocation: CliInvocation, { api }: RunningHost, io: AnswerIo): Promise<number> {
  const print = (value: unknown, human: () => string) => io.out(invocation.json ? safeJson(value, 2) : human());
  const filter = invocation.server !== undefined ? { serverId: invocation.server } : {};
  switch (invocation.command) {
    case 'tools': {
      if (invocation.args[0] === 'approve') {
        const [, serverId = '', name = ''] = invocation.args;
        const tools = await api.listTools({ serverId });
        const tool = tools.find((t) => t.name === name);
        if (!tool) {
          const meant = nearestWord(name, tools.map((t) => t.name));
          throw new CliFailure(`${serverId} offers no tool named "${name}"${meant ? `: did you mean "${meant}"?` : ''}`);
        }
        if (!tool.changed) {
          io.out(`${format.visible(serverId)} / ${format.visible(name)} has not changed since it was approved; nothing to do.`);
          return 0;
        }
        io.out(format.formatTools([tool]));
        await api.approveToolChange({ serverId, tool: name, fingerprint: tool.changed.fingerprint });
        io.out(`Approved the version shown above: the model gets ${format.visible(serverId)} / ${format.visible(name)} again (its next call asks as a new tool would).`);
        return 0;
      }
      if (invocation.search !== undefined) {
        const hits = await api.searchTools({ query: invocation.search, ...(invocation.limit ? { limit: invocation.limit } : {}) });
        print(
          hits.map((hit, index) => ({ rank: index + 1, modelName: hit.tool.modelName, serverId: hit.tool.serverId, tool: hit.tool.name, score: Number(hit.score.toFixed(4)) })),
          () => format.formatSearchHits(invocation.search ?? '', hits),
        );
        return 0;
      }
      const tools = await api.listTools(filter);
      print(tools, () => format.formatTools(tools));
      return 0;
    }
    case 'resources': {
      const resources = await api.listResources(filter);
      print(resources, () => format.formatResources(resources));
      return 0;
    }
    case 'templates': {
      const templates = await api.listResourceTemplates(filter);
      print(templates, () => format.formatTemplates(templates));
      return 0;
    }
    case 'prompts': {
      const prompts = await api.listPrompts(filter);
      print(prompts, () => format.formatPrompts(prompts));
      return 0;
    }
    case 'call': {
      const [serverId = '', tool = '', ...words] = invocation.args;
      // name=value words are read as the tool's schema says (an unknown tool is the call's to name).
      const listed = words.length === 0 ? undefined : (await api.listTools({ serverId })).find((summary) => summary.name === tool);
      const args = wordArguments(words, "the tool's", listed?.inputSchema);
      const calledAt = Date.now();
      const result = await api.callTool({ serverId, tool, ...(args ? { arguments: args } : {}) });
      print(result, () => format.formatContent(result));
      // MCP Apps: a result with a view is shown in the window; the terminal names the view and how to read it.
      const view = (listed ?? (await api.listTools({ serverId })).find((summary) => summary.name === tool))?.view;
      if (view) (invocation.json ? io.err : io.out)(format.viewNote(serverId, view.resourceUri));
      if (result.isError === true) {
        io.err(`atrium: ${serverId}: tool "${tool}" reported an error`);
        // A file its sandbox kept from it explains the error: said with how to let it, as the window's card does.
        const [sandbox] = await api.listSandboxes({ serverId });
        for (const line of format.formatBlockedInCall(serverId, sandbox?.blocked.filter((entry) => entry.at >= calledAt) ?? [])) io.err(line);
        return 1;
      }
      return 0;
    }
    case 'read': {
      const [serverId = '', uri = ''] = invocation.args;
      const result = await api.readResource({ serverId, uri });
      if (invocation.output !== undefined) return saveResource(result, invocation.output, io);
      print(result, () => format.formatResourceContents(result, `atrium read ${serverId} ${uri} --output FILE`));
      return 0;
    }
    case 'prompt': {
      const [serverId = '', name = '', ...words] = invocation.args;
      const given = wordArguments(words, "the prompt's");
      const args = given === undefined ? undefined : toStringArguments(given);
      const result: JsonObject = await api.getPrompt({ serverId, name, ...(args ? { arguments: args } : {}) });
      print(result, () => format.formatPromptMessages(result));
      return 0;
    }
    case 'skills': {
      const lists = await api.listSkills(filter);
      print(lists, () => formatSkills(lists));
      // A listing that leaves out what a server offers is not a whole answer, as for a server that could not start.
      return lists.some((list) => list.error !== undefined) ? 1 : 0;
    }
    case 'skill': {
      const [serverId = '', named = '', file] = invocation.args;
      const uri = await skillUriOf(api, serverId, named);
      if (file === undefined) {
        const shown = await api.showSkill({ serverId, uri });
        print(shown, () => formatShownSkill(shown));
      } else {
        const shown = await api.showSkillFile({ serverId, uri, file });
        print(shown, () => (shown.text === undefined ? `${format.visible(shown.uri)} is not text (${shown.size.toLocaleString('en')} bytes)` : format.visible(shown.text)));
      }
      return 0;
    }
    default:
      throw new CliFailure(`"${invocation.command}" is not handled`);
  }
}

/**
 * The skill meant: by its URI, or by the name its listing shows first. A name that is no skill's of the
 * server names the one meant; a name two skills share asks for the URI of the one meant.
 */
async function skillUriOf(api: RunningHost['api'], serverId: string, given: string): Promise<string> {
  if (URI_SCHEME.test(given)) return given;
  const skills = (await api.listSkills({ serverId })).flatMap((list) => list.skills);
  const named = skills.filter((skill) => skill.name === given);
  if (named.length === 1 && named[0]) return named[0].uri;
  const listing = `atrium skills --server ${serverId} lists them`;
  if (named.length > 1) throw new CliFailure(`${serverId} has ${named.length} skills named "${given}": give the one meant by its URI (${listing})`);
  const meant = nearestWord(given, skills.map((skill) => skill.name));
  throw new CliFailure(`${serverId} has no skill named "${given}"${meant ? `: did you mean "${meant}"?` : ''} (${listing})`);
}

/** A URI's scheme (RFC 3986): what tells a skill's URI from its name, which has none. */
const URI_SCHEME = /^[a-z][a-z\d+.-]*:/i;

/** The arguments the words give; how they are typed was checked with the command line. */
function wordArguments(words: readonly string[], of: ArgumentsOf, inputSchema?: Record<string, unknown>): Record<string, unknown> | undefined {
  const read = readWordArguments(words, of, inputSchema);
  if ('problem' in read) throw new CliFailure(read.problem);
  return read.arguments;
}

/** Prompt arguments are strings on the wire; numbers and booleans given in JSON are converted. */
function toStringArguments(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/**
 * `atrium read … --output FILE`: the resource's one content saved as it is, text or binary, in a new file.
 * Its bytes go only to the file the person named, never to standard output, where a pipe may end at a terminal.
 */
async function saveResource(result: JsonObject, file: string, io: AnswerIo): Promise<number> {
  const bytes = format.oneContentBytes(result);
  if (typeof bytes === 'number') throw new CliFailure(`the resource has ${bytes === 0 ? 'no contents' : `${bytes} contents`}, and --output saves one: read it without --output to see ${bytes === 0 ? 'what the server said' : 'them'}`);
  let created = false;
  try {
    // Never over a file that is there: a slip in its name must not cost the person what it held.
    const handle = await open(file, 'wx');
    created = true;
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
  } catch (error) {
    // A write cut short (a full disk) leaves no half of the resource behind to be taken for all of it.
    if (created) await rm(file, { force: true }).catch(() => undefined);
    const why: Record<string, string> = { EEXIST: 'there is a file there already; name another, or remove that one first', ENOENT: 'its folder does not exist', EACCES: 'you may not write there', EPERM: 'you may not write there', EISDIR: 'that is a folder', ENOSPC: 'the disk is full', EROFS: 'that disk is read-only' };
    const reason = why[(error as NodeJS.ErrnoException).code ?? ''] ?? 'the file could not be written';
    throw new CliFailure(`could not save it to ${format.visible(file)}: ${reason}`);
  }
  io.out(`Saved ${bytes.length} bytes to ${format.visible(file)}.`);
  return 0;
}
