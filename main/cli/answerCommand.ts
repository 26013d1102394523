// What a command that lists or uses what servers offer answers, once the host has started them: the
// tools (and a tool change approved), resources, templates, prompts, skills, a call, a read, a prompt's
// messages. Printed for a person, or as JSON with --json; the exit code says whether it went well.

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
  /** Raw bytes to standard output, where that is a file or a pipe (never a terminal). */
  bytes?(data: Uint8Array): void;
}

export async function answerCommand(invocation: CliInvocation, { api }: RunningHost, io: AnswerIo): Promise<number> {
  const print = (value: unknown, human: () => string) => io.out(invocation.json ? safeJson(value, 2) : human());
  const filter = invocation.server !== undefined ? { serverId: invocation.server } : {};
  switch (invocation.command) {
    case 'tools': {
      if (invocation.args[0] === 'approve') {
        const [, serverId = '', name = ''] = invocation.args;
        const tool = (await api.listTools({ serverId })).find((t) => t.name === name);
        if (!tool) throw new CliFailure(`${serverId} offers no tool named "${name}"`);
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
      const result = await api.callTool({ serverId, tool, ...(args ? { arguments: args } : {}) });
      print(result, () => format.formatContent(result));
      // MCP Apps: a result with a view is shown in the window; the terminal names the view and how to read it.
      const view = (listed ?? (await api.listTools({ serverId })).find((summary) => summary.name === tool))?.view;
      if (view) (invocation.json ? io.err : io.out)(format.viewNote(serverId, view.resourceUri));
      if (result.isError === true) {
        io.err(`atrium: ${serverId}: tool "${tool}" reported an error`);
        return 1;
      }
      return 0;
    }
    case 'read': {
      const [serverId = '', uri = ''] = invocation.args;
      const result = await api.readResource({ serverId, uri });
      // A binary resource redirected to a file or a pipe is written as it is: `atrium read … > picture.png`.
      const bytes = invocation.json ? undefined : format.onlyBinaryContent(result);
      if (bytes !== undefined && io.bytes) io.bytes(bytes);
      else print(result, () => format.formatResourceContents(result, `atrium read ${serverId} ${uri} > FILE`));
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
      return 0;
    }
    case 'skill': {
      const [serverId = '', uri = '', file] = invocation.args;
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
