// A server's declared capabilities as lines a person can read. The names and keys come from the server:
// known ones are explained, anything else is listed by the name it was given. The extensions Atrium takes
// part in (MCP Apps, Tasks, Skills) are named by their own contracts' identifiers, one line each.
import { MCP_APPS_EXTENSION } from '../../../main/mcp/extensions/apps/contract/viewSandbox.ts';
import { SKILLS_EXTENSION } from '../../../main/mcp/extensions/skills/contract/skillViews.ts';
import { TASKS_EXTENSION } from '../../../main/mcp/extensions/tasks/contract/tasksContract.ts';

export interface CapabilityView {
  /** The name the server declared, e.g. "resources". */
  name: string;
  /** What it offers, for a capability Atrium knows; undefined for one it does not. */
  meaning?: string;
  /** Its declared sub-features: a known one with what it means, any other by its (dotted) key. */
  features: { key: string; meaning?: string }[];
}

const meanings: Record<string, string> = {
  tools: 'tools the model can call',
  resources: 'resources to read and attach',
  prompts: 'prompts to start a message from',
  logging: 'log messages, whose level can be set',
  completions: 'suggestions while filling in arguments',
  tasks: 'long calls it runs on as tasks, followed while you chat',
  extensions: 'extensions to the protocol',
  experimental: 'features outside the specification',
};

const featureMeanings: Record<string, string> = {
  listChanged: 'says when its list changes',
  subscribe: 'a resource can be watched for changes',
  list: 'its tasks can be listed',
  cancel: 'a task can be cancelled',
  'requests.tools.call': 'a tool call can run as a task',
};

/** The extensions Atrium takes part in, by the identifier a server declares under `extensions`. */
const extensionMeanings: Record<string, string> = {
  [MCP_APPS_EXTENSION]: 'MCP Apps: views of its tools, shown in the chat',
  [TASKS_EXTENSION]: 'MCP Tasks: long calls it runs on as tasks',
  [SKILLS_EXTENSION]: 'Skills: instructions with files, read when used',
};

export function capabilityList(capabilities: Record<string, unknown>): CapabilityView[] {
  return Object.entries(capabilities)
    .filter(([, value]) => value !== undefined && value !== null && value !== false)
    .map(([name, value]) => ({
      name,
      ...(Object.hasOwn(meanings, name) ? { meaning: meanings[name] } : {}),
      // An extension is listed by its identifier (which holds dots and slashes), not by its settings' keys.
      features:
        name === 'extensions' && typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.keys(value).map((id) => ({ key: id, ...(Object.hasOwn(extensionMeanings, id) ? { meaning: extensionMeanings[id] } : {}) }))
          : featureKeys(value).map((key) => ({ key, ...(Object.hasOwn(featureMeanings, key) ? { meaning: featureMeanings[key] } : {}) })),
    }));
}

/** `{list: {}, requests: {tools: {call: {}}}}` → ["list", "requests.tools.call"]; a flag set to false is left out. */
function featureKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const path = `${prefix}${key}`;
    if (inner === false || inner === null || inner === undefined) return [];
    if (typeof inner === 'object' && !Array.isArray(inner) && Object.keys(inner).length > 0) return featureKeys(inner, `${path}.`);
    if (inner === true || typeof inner === 'object') return [path];
    return [`${path}: ${JSON.stringify(inner)}`];
  });
}
