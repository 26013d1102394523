// Which policy files are in force for a run: the machine's (where the platform keeps it, unless a test
// names another) and the extra one ATRIUM_POLICY_FILE names.

import { machinePolicyPath } from './organisationPolicy.ts';
import type { PolicyFiles } from './organisationPolicy.ts';

export function policyFilesOf(environment: NodeJS.ProcessEnv, machineFile?: string): PolicyFiles {
  const extra = environment.ATRIUM_POLICY_FILE;
  return { machine: machineFile ?? machinePolicyPath(), ...(extra !== undefined && extra !== '' ? { extra } : {}) };
}
