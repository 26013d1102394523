// Installs a server from a registry's entry or from a bundle, the same way whoever asks (the window, the
// command line): the server is made from the entry or the bundle (an exact version, never `latest`), the
// organisation's policy is asked first — a server it would block is not installed, and nothing is
// written — then its secrets go to Atrium's encrypted store, a bundle is unpacked under the data folder,
// the definition is saved (not trusted) and where it came from is recorded. Nothing runs: like any new
// definition it waits for the person's approval, which shows its origin.

import type { BundlePlan, InstallPlan, InstalledAlready, PolicyBlock, RegistrySearch, ServerOrigin } from '../../../shared/installs.ts';
import { BUNDLE_LIMITS, describeBlock, shortName } from '../../../shared/installs.ts';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { SERVER_SECRET_PREFIX, referencedSecrets } from '../config/secretReferences.ts';
import type { McpHub } from '../McpHub.ts';
import type { ServerRegistry } from '../ServerRegistry.ts';
import { readBounded } from '../http/boundedBody.ts';
import type { WritableSecrets } from '../../store/encryptedSecrets.ts';
import type { BundleRead } from './bundle/bundleArchive.ts';
import { readBundle } from './bundle/bundleArchive.ts';
import { bundleFolder, removeUnusedBundle, unpackBundle } from './bundle/bundleFolders.ts';
import { bundlePlan, bundleServer } from './bundle/bundleServer.ts';
import { InstallError } from './installError.ts';
import { FieldProblemsError } from '../../../shared/fieldProblems.ts';
import { nameTakenMessage } from '../../../shared/serverFormLabels.ts';
import type { InstallRecords } from './installRecords.ts';
import { entryServer, installChoices } from './registry/entryDefinition.ts';
import { chooseRegistry } from './registry/registryAddress.ts';
import type { RegistryClient } from './registry/registryClient.ts';
import { registryClient } from './registry/registryClient.ts';
import type { RegistryLists } from './registry/registryLists.ts';
import type { RegistryRecord } from './registry/registryRecords.ts';
import { entryView, publisherOf, searchRecords } from './registry/registryViews.ts';
import { RecentBundles } from './recentBundles.ts';

/** What an organisation's policy says before anything is installed (main/host/policy/ implements it). */
export interface InstallPolicy {
  /** The registry the policy names, and its file: then Atrium asks no other. */
  registry(): { address: string; file: string } | undefined;
  /** The rule that would keep this server from starting, installed from `registry` (undefined: a bundle's file). */
  refuses(definition: ServerDefinition, registry: string | undefined): PolicyBlock | undefined;
}

export interface InstallerDeps {
  home: string;
  registry: ServerRegistry;
  hub: McpHub;
  records: InstallRecords;
  lists: RegistryLists;
  /** Where a server's secrets are kept; without it, a server that asks for one cannot be installed. */
  secrets?: WritableSecrets;
  policy?: InstallPolicy;
  /** The registry saved in Settings, and ATRIUM_REGISTRY_URL's. */
  savedRegistry(): string | undefined;
  environmentRegistry?: string;
  client?: (address: string) => RegistryClient;
  fetch?: typeof fetch;
}

export interface RegistryInstall {
  name: string;
  version?: string;
  registry?: string;
  /** Which way of the entry (a package, a remote): the first Atrium can install when not given. */
  choice?: number;
  values: Readonly<Record<string, string>>;
  serverId?: string;
}

export interface BundleInstall {
  bytes: Uint8Array;
  sha256?: string;
  values: Readonly<Record<string, string>>;
  serverId?: string;
}

export class ServerInstaller {
  private readonly deps: InstallerDeps;
  /** A bundle planned is installed from the file the plan downloaded and checked. */
  private readonly recentBundles = new RecentBundles();

  constructor(deps: InstallerDeps) {
    this.deps = deps;
  }

  /** The entries that match every word (all of them without a limit), from the registry's whole list. */
  async search(words: string, options: { registry?: string; refresh?: boolean; limit?: number } = {}): Promise<RegistrySearch> {
    const { address, source } = this.registryFor(options.registry);
    let listing: Awaited<ReturnType<RegistryLists['latest']>>;
    try {
      listing = await this.deps.lists.latest(this.client(address), { ...(options.refresh ? { refresh: true } : {}) });
    } catch (error) {
      // No list, and no copy of one: said with the registry and its source, so the person can pick another.
      if (!(error instanceof InstallError)) throw error;
      return { registry: address, registrySource: source, fetchedAt: Date.now(), unreachable: error.message, entries: [], total: 0, skipped: 0 };
    }
    const found = searchRecords(listing.records, words);
    return {
      registry: address,
      registrySource: source,
      fetchedAt: listing.fetchedAt,
      ...(listing.fromCopy !== undefined ? { fromCopy: listing.fromCopy } : {}),
      entries: found.slice(0, options.limit ?? found.length).map((record) => entryView(record, address)),
      total: found.length,
      skipped: listing.skipped,
    };
  }

  async plan(name: string, version?: string, registry?: string): Promise<InstallPlan> {
    const { address } = this.registryFor(registry);
    const record = await this.entry(address, name, version);
    // A bundle's settings are known once its file is fetched and its hash checked.
    const choices = await Promise.all(
      installChoices(record).map(async (way, index) => {
        if (way.kind !== 'mcpb' || way.unsupported) return way;
        try {
          const plan = bundlePlan(await this.entryBundle(record, index));
          return { ...way, runs: plan.runs, inputs: plan.inputs };
        } catch (error) {
          if (!(error instanceof InstallError)) throw error;
          return { ...way, unsupported: error.message };
        }
      }),
    );
    return { registry: address, entry: entryView(record, address), choices, suggestedId: this.freeName(shortName(name)), installed: this.installedFrom('registry', record.server.name) };
  }

  /** The bundle a registry entry's package points at, fetched (or kept from its plan) and checked against the hash the entry gives. */
  private async entryBundle(record: RegistryRecord, choice: number): Promise<BundleRead> {
    const pkg = record.server.packages?.[choice];
    if (!pkg || pkg.registryType !== 'mcpb') throw new InstallError('invalid_params', `${record.server.name} has no bundle numbered ${choice + 1}`);
    if (!pkg.fileSha256) throw new InstallError('invalid_params', `${record.server.name} lists a bundle without its SHA-256, which Atrium needs to check the file`);
    const bytes = this.recentBundles.get(pkg.identifier, pkg.fileSha256) ?? (await this.download(pkg.identifier));
    const read = await readBundle(bytes, pkg.fileSha256);
    this.recentBundles.keep(pkg.identifier, pkg.fileSha256, bytes);
    return read;
  }

  async installFromRegistry(request: RegistryInstall): Promise<ServerSnapshot> {
    const { address } = this.registryFor(request.registry);
    const record = await this.entry(address, request.name, request.version);
    const choices = installChoices(record);
    const choice = request.choice ?? choices.findIndex((way) => way.unsupported === undefined);
    const way = choices[choice];
    if (!way) throw new InstallError('invalid_params', `${request.name} ${record.server.version} offers no way Atrium can install: ${choices.map((c) => c.unsupported).filter(Boolean).join('; ') || 'it lists no package and no remote'}`);
    if (way.unsupported) throw new InstallError('invalid_params', way.unsupported);
    const serverId = this.nameFor(request.serverId, shortName(request.name));
    const origin = (inputs: ServerOrigin['inputs']): ServerOrigin => ({
      kind: 'registry',
      registry: address,
      name: record.server.name,
      version: record.server.version,
      publisher: publisherOf(record.server.name, address),
      ...(record.status === 'deprecated' ? { deprecated: record.statusMessage ?? 'The registry marks this version deprecated.' } : {}),
      inputs,
    });
    if (way.kind === 'mcpb') {
      const read = await this.entryBundle(record, choice);
      return this.commitBundle(read, request.values, serverId, address, (inputs) => origin(inputs));
    }
    const made = entryServer(record, choice, request.values, serverId);
    return this.commit(made.definition, made.secrets, origin(made.inputs), address);
  }

  async previewBundle(bytes: Uint8Array, sha256?: string): Promise<BundlePlan> {
    const plan = bundlePlan(await readBundle(bytes, sha256));
    return { ...plan, suggestedId: this.freeName(plan.suggestedId), installed: this.installedFrom('bundle', plan.name) };
  }

  /** The servers that run what was installed from a registry entry, or a bundle, of this name, and the version each runs. */
  private installedFrom(kind: ServerOrigin['kind'], name: string): InstalledAlready[] {
    return this.deps.registry.all().flatMap((server) => {
      const origin = this.deps.records.originOf(server);
      return origin?.kind === kind && origin.name === name ? [{ serverId: server.id, version: origin.version }] : [];
    });
  }

  async installBundle(request: BundleInstall): Promise<ServerSnapshot> {
    const read = await readBundle(request.bytes, request.sha256);
    const serverId = this.nameFor(request.serverId, read.manifest.name);
    return this.commitBundle(read, request.values, serverId, undefined, (inputs, roots) => ({
      kind: 'bundle',
      name: read.manifest.name,
      version: read.manifest.version,
      ...(read.manifest.author?.name ? { author: read.manifest.author.name } : {}),
      sha256: read.sha256,
      signature: read.signature,
      inputs,
      roots,
    }));
  }

  private async commitBundle(read: BundleRead, values: Readonly<Record<string, string>>, serverId: string, registry: string | undefined, origin: (inputs: ServerOrigin['inputs'], roots: string[]) => ServerOrigin): Promise<ServerSnapshot> {
    // The folder it will run from is known before it is unpacked, so the policy is asked before anything is written.
    const made = await bundleServer(read, bundleFolder(this.deps.home, read), values, serverId);
    return this.commit(made.definition, made.secrets, origin(made.inputs, made.roots), registry, () => unpackBundle(this.deps.home, read));
  }

  private async commit(definition: ServerDefinition, secrets: ReadonlyMap<string, string>, origin: ServerOrigin, registry: string | undefined, unpack?: () => Promise<unknown>): Promise<ServerSnapshot> {
    const block = this.deps.policy?.refuses(definition, registry);
    if (block) throw new InstallError('invalid_params', `${definition.id} was not installed: ${describeBlock(block)}`);
    if (secrets.size > 0 && !this.deps.secrets) throw new InstallError('failed', `${definition.id} asks for secrets, and this Atrium has no encrypted store to keep them in; nothing was installed`);
    await unpack?.();
    for (const [name, value] of secrets) await this.deps.secrets?.set(name, value);
    await this.deps.registry.save(definition);
    await this.deps.records.record(definition, origin);
    // Like any new definition, it waits for the person's approval: the gate holds it, nothing runs.
    await this.deps.hub.replace(definition);
    return this.deps.hub.get(definition.id).snapshot;
  }

  /**
   * A server the person removed: the secrets Atrium keeps for servers that its definition names leave the
   * store, unless a server still configured names them too (a copy made under another name). A provider's
   * key, or any secret not kept for a server, is never touched. Returns the names that went.
   */
  async forgetSecretsOf(removed: ServerDefinition): Promise<string[]> {
    const store = this.deps.secrets;
    if (!store) return [];
    const stillNamed = new Set(this.deps.registry.all().flatMap((server) => referencedSecrets(server)));
    const gone = referencedSecrets(removed).filter((name) => name.startsWith(SERVER_SECRET_PREFIX) && !stillNamed.has(name));
    for (const name of gone) await store.delete(name);
    return gone;
  }

  /** A server the person removed: the bundle it was unpacked from goes too, unless a server still configured runs from it. */
  forgetBundleOf(removed: ServerDefinition): Promise<string | undefined> {
    return removeUnusedBundle(this.deps.home, removed, this.deps.registry.all());
  }

  private registryFor(requested: string | undefined): ReturnType<typeof chooseRegistry> {
    const policy = this.deps.policy?.registry();
    const saved = this.deps.savedRegistry();
    return chooseRegistry({
      ...(policy ? { policy } : {}),
      ...(requested !== undefined ? { requested } : {}),
      ...(this.deps.environmentRegistry ? { environment: this.deps.environmentRegistry } : {}),
      ...(saved ? { settings: saved } : {}),
    });
  }

  private client(address: string): RegistryClient {
    return (this.deps.client ?? ((at) => registryClient(at, this.deps.fetch)))(address);
  }

  private async entry(address: string, name: string, version: string | undefined): Promise<RegistryRecord> {
    const record = await this.client(address).entry(name, version);
    if (record.status === 'deleted') throw new InstallError('not_found', `${name} ${record.server.version} was deleted from the registry at ${address}`);
    return record;
  }

  /** A bundle a registry entry points at: over https (or to this computer), within the size Atrium installs. */
  private async download(identifier: string): Promise<Uint8Array> {
    let url: URL;
    try {
      url = new URL(identifier);
    } catch {
      throw new InstallError('invalid_params', `the bundle's address "${identifier}" is not an address`);
    }
    const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) throw new InstallError('invalid_params', `the bundle's address ${url.href} is not https`);
    try {
      const response = await (this.deps.fetch ?? fetch)(url, { signal: AbortSignal.timeout(120_000) });
      if (!response.ok) throw new InstallError('failed', `downloading the bundle from ${url.href} failed: ${response.status} ${response.statusText}`.trim());
      const bounded = await readBounded(response, { maxBytes: BUNDLE_LIMITS.fileBytes, tooLarge: () => new InstallError('invalid_params', `the bundle at ${url.href} is over the ${BUNDLE_LIMITS.fileBytes / 1024 / 1024} MB Atrium installs`) });
      return new Uint8Array(await bounded.arrayBuffer());
    } catch (error) {
      if (error instanceof InstallError) throw error;
      throw new InstallError('failed', `downloading the bundle from ${url.href} failed: ${(error as Error).message}`);
    }
  }

  /** The name asked for (refused when taken), else the suggested one made free. */
  private nameFor(asked: string | undefined, suggested: string): string {
    if (asked === undefined) return this.freeName(suggested);
    const holder = this.deps.registry.nameHolder(asked);
    if (holder !== undefined) throw new FieldProblemsError([{ field: 'serverId', message: nameTakenMessage(asked, holder) }]);
    return asked;
  }

  private freeName(base: string): string {
    const clean = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'server';
    const free = (name: string) => this.deps.registry.nameHolder(name) === undefined;
    if (free(clean)) return clean;
    for (let n = 2; ; n++) if (free(`${clean}-${n}`)) return `${clean}-${n}`;
  }
}
