// A server's declared capabilities as lines a person can read. The names and keys come from the server:
// known ones are explained, anything else is listed by the name it was given.

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
  experimental: 'features outside the specification',
};

const featureMeanings: Record<string, string> = {
  listChanged: 'says when its list changes',
  subscribe: 'a resource can be watched for changes',
};

export function capabilityList(capabilities: Record<string, unknown>): CapabilityView[] {
  return Object.entries(capabilities)
    .filter(([, value]) => value !== undefined && value !== null && value !== false)
    .map(([name, value]) => ({
      name,
      ...(Object.hasOwn(meanings, name) ? { meaning: meanings[name] } : {}),
      features: featureKeys(value).map((key) => ({ key, ...(Object.hasOwn(featureMeanings, key) ? { meaning: featureMeanings[key] } : {}) })),
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
