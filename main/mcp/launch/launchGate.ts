// The one check every server's start passes, injected into every connection as its `launchGate`: the
// organisation's policy first — a server it blocks never starts, whatever the person approved, and says
// which rule of which file blocks it — then the person's approval of exactly what it runs. Asked before
// anything runs or is contacted, and again just before a local server is spawned.

import type { PolicyBlock } from '../../../shared/installs.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import type { LaunchGate, LaunchHold } from '../connection/connectionServices.ts';
import type { LaunchApprovals } from './launchApprovals.ts';

/** What an organisation's policy says of a definition (main/host/policy/ implements it). */
export interface LaunchPolicy {
  blocked(definition: ServerDefinition): PolicyBlock | undefined;
}

export function launchGate(approvals: Pick<LaunchApprovals, 'check' | 'confirm'>, policy?: LaunchPolicy): LaunchGate {
  const held = (definition: ServerDefinition): LaunchHold | undefined => {
    const block = policy?.blocked(definition);
    return block ? { kind: 'blocked', block } : undefined;
  };
  return {
    check: (definition) => {
      const blocked = held(definition);
      if (blocked) return blocked;
      const reason = approvals.check(definition);
      return reason ? { kind: 'needs-approval', reason } : undefined;
    },
    confirm: async (definition, environment) => held(definition) ?? ((await approvals.confirm(definition, environment)) ? { kind: 'needs-approval', reason: 'changed' } : undefined),
  };
}
