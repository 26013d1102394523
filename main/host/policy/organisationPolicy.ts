// The organisation's policy in force: the machine's policy file (Linux /etc/atrium/policy.json, macOS
// /Library/Application Support/Atrium/policy.json, Windows %ProgramData%\Atrium\policy.json), and the
// file ATRIUM_POLICY_FILE names — an extra policy, which can only add restrictions: a server must pass
// every file. The files are read again every second, so a change takes effect within a few seconds, and
// the owner announces it (the hub then holds or lets through every server as the gate says now).
// It answers the launch gate (every start), the installer (before anything is written) and `import`.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { win32 } from 'node:path';
import type { PolicyBlock, ServerReach } from '../../../shared/installs.ts';
import type { ServerDefinition } from '../../mcp/config/serverConfig.ts';
import type { LaunchPolicy } from '../../mcp/launch/launchGate.ts';
import type { InstallPolicy } from '../../mcp/install/serverInstaller.ts';
import { parsePolicy } from './policyDocument.ts';
import type { LoadedPolicy } from './policyRules.ts';
import { policyBlock } from './policyRules.ts';

/** How often the policy files are read again: a change takes effect within this (and the read). */
const FOLLOW_INTERVAL_MS = 1000;
const MAX_POLICY_BYTES = 1024 * 1024;

export interface PolicyFiles {
  /** The machine's policy file (absent: no machine policy). */
  machine: string;
  /** The extra policy ATRIUM_POLICY_FILE names; it must exist when named. */
  extra?: string;
}

/** Where the machine's policy lives on this platform. */
export function machinePolicyPath(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === 'darwin') return '/Library/Application Support/Atrium/policy.json';
  if (platform === 'win32') return win32.join(env.ProgramData ?? 'C:\\ProgramData', 'Atrium', 'policy.json');
  return '/etc/atrium/policy.json';
}

export interface PolicyFactSources {
  /** The registry a server was installed from, as Atrium's signed record says (while it runs what was installed). */
  installedFrom(server: ServerDefinition): string | undefined;
  reach(server: ServerDefinition): ServerReach;
}

export class OrganisationPolicy implements LaunchPolicy, InstallPolicy {
  private loaded: LoadedPolicy[] = [];
  private digest = '';
  private readonly files: PolicyFiles;
  private readonly facts: PolicyFactSources;
  private readonly listeners = new Set<() => void>();

  private constructor(files: PolicyFiles, facts: PolicyFactSources) {
    this.files = files;
    this.facts = facts;
  }

  static async open(files: PolicyFiles, facts: PolicyFactSources): Promise<OrganisationPolicy> {
    const policy = new OrganisationPolicy(files, facts);
    await policy.reload();
    return policy;
  }

  /** The rule that keeps this server from starting, of the first file that has one. */
  blocked(server: ServerDefinition): PolicyBlock | undefined {
    return this.firstBlock(server, { installedFrom: this.facts.installedFrom(server), reach: this.facts.reach(server) });
  }

  /** The same, for a server about to be installed from `registry` (a bundle's file: none). */
  refuses(server: ServerDefinition, registry: string | undefined): PolicyBlock | undefined {
    return this.firstBlock(server, { installedFrom: registry, reach: this.facts.reach(server) });
  }

  registry(): { address: string; file: string } | undefined {
    for (const loaded of this.loaded) if ('policy' in loaded && loaded.policy.registryUrl) return { address: loaded.policy.registryUrl, file: loaded.file };
    return undefined;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the files again every second; a change is announced. Returns the way to stop. */
  follow(): () => void {
    const timer = setInterval(() => {
      void this.reload().then((changed) => {
        if (changed) for (const listener of [...this.listeners]) listener();
      });
    }, FOLLOW_INTERVAL_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private firstBlock(server: ServerDefinition, facts: Parameters<typeof policyBlock>[2]): PolicyBlock | undefined {
    for (const loaded of this.loaded) {
      const block = policyBlock(loaded, server, facts);
      if (block) return block;
    }
    return undefined;
  }

  /** Reads every file; whether what is in force changed. */
  private async reload(): Promise<boolean> {
    const loaded = (await Promise.all([readPolicy(this.files.machine, false), ...(this.files.extra !== undefined ? [readPolicy(this.files.extra, true)] : [])])).filter(
      (policy): policy is LoadedPolicy => policy !== undefined,
    );
    const digest = createHash('sha256').update(JSON.stringify(loaded)).digest('hex');
    if (digest === this.digest) return false;
    this.loaded = loaded;
    this.digest = digest;
    return true;
  }
}

/** A policy file: its rules, the problem that keeps it from being read, or nothing when an optional one is absent. */
async function readPolicy(file: string, named: boolean): Promise<LoadedPolicy | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !named) return undefined;
    return { file, problem: code === 'ENOENT' ? 'ATRIUM_POLICY_FILE names it, and it does not exist' : `it cannot be read: ${(error as Error).message}` };
  }
  if (bytes.length > MAX_POLICY_BYTES) return { file, problem: `it is over ${MAX_POLICY_BYTES / 1024 / 1024} MB` };
  const parsed = parsePolicy(bytes);
  return 'policy' in parsed ? { file, policy: parsed.policy } : { file, problem: parsed.problem };
}
