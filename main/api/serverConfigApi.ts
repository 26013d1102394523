// The servers half of the typed contract that edits the servers file: add, edit, remove, and approve
// what a server runs. A server that is new, or whose command line, environment or address changed, is
// saved disabled: nothing runs before the person has seen exactly what will run, with its risky shapes,
// and approved that definition (approveServerLaunch). Saving the form is not that approval: the start
// dialog that follows it is.

import type { AtriumApi } from '../../shared/contract.ts';
import { FieldProblemsError } from '../../shared/fieldProblems.ts';
import { toStoredEntry } from '../mcp/config/serverConfig.ts';
import type { ServerDefinition } from '../mcp/config/serverConfig.ts';
import { ServerError } from '../mcp/connection/serverError.ts';
import type { McpHub } from '../mcp/McpHub.ts';
import type { ServerRegistry } from '../mcp/ServerRegistry.ts';
import type { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';
import { checkServerForm } from './serverFormProblems.ts';
import type { PolicyBlock, ServerOrigin, ServerReach } from '../../shared/installs.ts';
import { describeBlock } from '../../shared/installs.ts';

/** What is said of a server before it starts besides what it runs: where it came from, what it can touch, the policy's word. */
export interface LaunchFacts {
  originOf(definition: ServerDefinition): ServerOrigin | undefined;
  reach(definition: ServerDefinition): ServerReach;
  blocked(definition: ServerDefinition): PolicyBlock | undefined;
}

/** Approving a server the organisation's policy blocks: it could not start, so it is not approved. */
export class BlockedServerError extends Error {
  readonly code = 'failed';
}

import type { SandboxSummary } from '../../shared/domain.ts';

/** A local server's sandbox, for its start dialog: what it will be able to touch (the sandbox extension's). */
export type SandboxOf = (definition: ServerDefinition) => Promise<SandboxSummary | undefined>;

type ServerConfigRequests = Pick<AtriumApi, 'getServerConfig' | 'saveServer' | 'removeServer' | 'reviewServerLaunch' | 'approveServerLaunch'>;

/** A server removed whose secrets or files stayed behind (its keychain could not be reached, say): said, not hidden. */
export class KeptAfterRemovalError extends Error {
  readonly code = 'failed';
}

export class InvalidServerConfigError extends Error {
  readonly code = 'invalid_params';
}

/** What decides what runs or is contacted; a change to any of it needs the person's look again. */
function launchOf(definition: ServerDefinition): string {
  const { disabled: _disabled, trusted: _trusted, disabledTools: _tools, alwaysLoadedTools: _loaded, requestTimeoutMs: _timeout, ...launch } = toStoredEntry(definition);
  return JSON.stringify(launch);
}

export interface ServerConfigDeps {
  hub: McpHub;
  registry: ServerRegistry;
  approvals: LaunchApprovals;
  facts: LaunchFacts;
  sandboxOf?: SandboxOf;
  /** A server the person removed: the secrets Atrium keeps for it leave the store (the installer's). */
  forgetSecretsOf?: (removed: ServerDefinition) => Promise<unknown>;
  /** A server the person removed: the bundle it was unpacked from is deleted, unless another server runs from it (the installer's). */
  forgetBundleOf?: (removed: ServerDefinition) => Promise<unknown>;
}

export function createServerConfigApi({ hub, registry, approvals, facts, sandboxOf, forgetSecretsOf, forgetBundleOf }: ServerConfigDeps): ServerConfigRequests {
  const known = (id: string): ServerDefinition => {
    const definition = registry.get(id);
    if (!definition) throw new ServerError(id, 'not_found', `there is no server named "${id}"`);
    return definition;
  };
  return {
    getServerConfig: async ({ serverId }) => toStoredEntry(known(serverId)),
    saveServer: async ({ serverId, entry, replaces }) => {
      const previous = replaces === undefined ? undefined : known(replaces);
      const parsed = checkServerForm({ serverId, entry, ...(replaces !== undefined ? { replaces } : {}) }, (id) => registry.nameHolder(id));
      if ('problems' in parsed) throw new FieldProblemsError(parsed.problems);
      const unchanged = previous !== undefined && launchOf(previous) === launchOf(parsed.server);
      const definition: ServerDefinition = unchanged ? { ...parsed.server, disabled: parsed.server.disabled || previous.disabled } : { ...parsed.server, disabled: true };
      await registry.save(definition, replaces);
      if (replaces !== undefined && replaces !== serverId) {
        await approvals.rename(replaces, definition);
        await hub.remove(replaces);
      }
      await hub.replace(definition);
      return hub.get(serverId).snapshot;
    },
    reviewServerLaunch: async ({ serverId }) => {
      const definition = known(serverId);
      const origin = facts.originOf(definition);
      const blocked = facts.blocked(definition);
      const [review, sandbox] = await Promise.all([approvals.review(definition), sandboxOf?.(definition)]);
      return { ...review, reach: facts.reach(definition), ...(origin ? { origin } : {}), ...(blocked ? { blocked } : {}), ...(sandbox ? { sandbox } : {}) };
    },
    approveServerLaunch: async ({ serverId, hash, start }) => {
      const definition = known(serverId);
      const blocked = facts.blocked(definition);
      if (blocked) throw new BlockedServerError(`${serverId} cannot start: ${describeBlock(blocked)}`);
      await approvals.approve(definition, hash);
      if (start === false) return hub.get(serverId).snapshot;
      // Saved on top of what the file holds now; if its launch changed meanwhile, the gate asks again.
      const enabled = definition.disabled ? await registry.update({ ...definition, disabled: false }) : definition;
      await hub.replace(enabled);
      return hub.get(serverId).snapshot;
    },
    removeServer: async ({ serverId }) => {
      // An entry with a mistake is no server, but the person may remove it rather than fix it: it leaves
      // the file as a server does (what it names cannot be read, so nothing kept for it is looked for).
      if (registry.nameHolder(serverId) === 'unreadable entry') {
        await registry.remove(serverId);
        return null;
      }
      const removed = known(serverId);
      await registry.remove(serverId);
      await hub.remove(serverId);
      // Removed by the person, not by a hand edit of the file (which may be a cut to paste elsewhere):
      // what Atrium keeps for it goes too, its files first (they cannot fail for want of a keychain).
      const why = (error: unknown) => (error instanceof Error ? error.message : String(error));
      await forgetBundleOf?.(removed).catch((error: unknown) => {
        throw new KeptAfterRemovalError(`${serverId} was removed, but the bundle it was installed from could not be deleted from Atrium's data folder: ${why(error)}`);
      });
      await forgetSecretsOf?.(removed).catch((error: unknown) => {
        throw new KeptAfterRemovalError(`${serverId} was removed, but the secrets Atrium keeps for it could not be deleted: ${why(error)}`);
      });
      return null;
    },
  };
}
