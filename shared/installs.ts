// What installing a server shows the person — a registry's entries, the ways an entry can run, a bundle's
// manifest, the values each asks for — and what is said of a server before it runs: where it came from,
// what it will be able to touch, and the rule of an organisation's policy that keeps it from starting.

/** A rule of an organisation's policy that keeps a server from starting, named as the policy file writes it. */
export interface PolicyBlock {
  /** The policy file the rule is in. */
  file: string;
  /** The rule: `deniedMcpServers[0] {"serverCommand":[…]}`, `allowedMcpServers`, `registryOnly`, `requireSandbox`, or `(file)` when the file cannot be read. */
  rule: string;
  /** Why, in a sentence the person reads. */
  message: string;
}

/** The policy's sentence about a blocked server, with where the rule is: the same in the window, the terminal and the log. */
export function describeBlock(block: PolicyBlock): string {
  return block.rule === '(file)' ? `${block.message} (${block.file})` : `${block.message} (rule ${block.rule} in ${block.file})`;
}

/** What a server will be able to touch once it runs, as its sandbox profile says. */
export interface ServerReach {
  /** Where it runs: a process on this computer, a container, or another computer (a remote server). */
  where: 'this-computer' | 'container' | 'remote';
  /** It runs inside a sandbox that limits it; false: it can do whatever your user account can (or docker lets it). */
  sandboxed: boolean;
  /** One sentence. */
  summary: string;
  /** What it may reach and what not, a sentence each (folders, the network, other programs). */
  details: string[];
}

export type InstallInputKind = 'environment' | 'header' | 'url' | 'argument' | 'setting';

/**
 * A value an installed server asks for: where it goes (an environment variable, a header, a part of its
 * address, an argument, a bundle's setting), whether it must be given, and whether it is a secret — a
 * secret goes to Atrium's encrypted store and servers.json only names it.
 */
export interface InstallInput {
  /** The name the entry gives it: what `--env KEY=VALUE` names. */
  key: string;
  kind: InstallInputKind;
  title?: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  choices?: string[];
  format?: 'string' | 'number' | 'boolean' | 'filepath' | 'directory' | 'file';
  /** A bundle's setting that takes several values (one per line in the form). */
  multiple?: boolean;
}

/** Who published a registry entry, and whether anyone checked that they control that name. */
export interface Publisher {
  /** The part of the entry's name before the slash: `io.github.alice`, `com.example`. */
  namespace: string;
  verified: boolean;
  /** How the registry checked it, or why Atrium cannot tell. */
  note: string;
}

/** Where an installed server came from, shown before it first runs (only while it runs what was installed). */
export type ServerOrigin =
  | {
      kind: 'registry';
      registry: string;
      name: string;
      version: string;
      publisher: Publisher;
      /** The registry marks this version deprecated, with its message. */
      deprecated?: string;
      inputs: InstallInput[];
    }
  | {
      kind: 'bundle';
      name: string;
      version: string;
      author?: string;
      sha256: string;
      /** No bundle signature is checked anywhere today: one that carries a signature is said to be unchecked, never trusted. */
      signature: 'unsigned' | 'not-checked';
      inputs: InstallInput[];
      /** The folders the person gave its settings, which it gets as roots. */
      roots: string[];
    };

export type InstallKind = 'npm' | 'pypi' | 'oci' | 'mcpb' | 'remote';

/** One registry entry as a list shows it. Every string is the publisher's (untrusted text). */
export interface RegistryEntryView {
  name: string;
  title?: string;
  description: string;
  version: string;
  status: 'active' | 'deprecated';
  statusMessage?: string;
  publisher: Publisher;
  kinds: InstallKind[];
  websiteUrl?: string;
  repositoryUrl?: string;
}

/** Which registry Atrium asked, and why that one. */
export type RegistrySource = 'policy' | 'flag' | 'environment' | 'settings' | 'official';

/** A search of a registry: the entries that match, and how fresh the list they came from is. */
export interface RegistrySearch {
  registry: string;
  registrySource: RegistrySource;
  /** When the list was fetched from the registry (epoch ms). */
  fetchedAt: number;
  /** Set when the registry did not answer now and the list is the copy Atrium kept: why. */
  fromCopy?: string;
  /**
   * Set when the registry could not be read and no copy of its list is kept: why (a clause). Nothing is
   * listed then; the search still says which registry it was and why that one, so another can be chosen.
   */
  unreachable?: string;
  /** The first of the matching entries (as many as asked for). */
  entries: RegistryEntryView[];
  /** How many entries match in all. */
  total: number;
  /** Entries the registry sent that could not be read (left out). */
  skipped: number;
}

/** One way an entry can run (a package, or a remote address), with the values it asks for. */
export interface InstallChoice {
  kind: InstallKind;
  /** `npm package @scope/name 1.2.3`, `remote server https://…`. */
  label: string;
  /** What it will run or contact, values still as `{placeholders}`. */
  runs: string;
  inputs: InstallInput[];
  /** Why Atrium cannot install it this way, when it cannot. */
  unsupported?: string;
}

export interface InstallPlan {
  registry: string;
  entry: RegistryEntryView;
  choices: InstallChoice[];
  /** The name it gets in Atrium unless the person gives another. */
  suggestedId: string;
  /** Servers installed from this entry's name already, with the version each runs: installing again adds another. */
  installed: InstalledAlready[];
}

/** A server installed from the same registry entry or bundle, and the version it runs. */
export interface InstalledAlready {
  serverId: string;
  version: string;
}

/** A bundle read before anything of it is written: its manifest, its signature, the settings it asks for. */
export interface BundlePlan {
  name: string;
  displayName?: string;
  version: string;
  description: string;
  author?: string;
  sha256: string;
  signature: 'unsigned' | 'not-checked';
  inputs: InstallInput[];
  suggestedId: string;
  /** The command it runs, settings still as `${user_config.…}`. */
  runs: string;
  /** Servers installed from a bundle of this name already, with the version each runs: installing again adds another. */
  installed: InstalledAlready[];
}

/** The largest bundle Atrium installs, and the most its files may unpack to. */
export const BUNDLE_LIMITS = { fileBytes: 40 * 1024 * 1024, unpackedBytes: 400 * 1024 * 1024, entries: 10_000 } as const;

/** A registry entry's name without its namespace, as a person calls it: `io.github.alice/weather` → `weather`. */
export function shortName(name: string): string {
  return name.slice(name.indexOf('/') + 1);
}
