// Builds the transport for a local (stdio) server: Atrium's own process transport (linear reader,
// process-group shutdown, stderr into the server's log), with the server's secrets put in, in its
// sandbox when it has one, after the launch gate confirmed it. Nothing here loads the SDK: a server's
// process starts before the SDK's code is loaded (sessionOpener.ts), so the two overlap.

import { describeBlock } from '../../../shared/installs.ts';
import { LaunchHeldError } from './connectionServices.ts';
import type { LaunchGate, LaunchSandbox } from './connectionServices.ts';
import { withSecrets } from '../config/secretReferences.ts';
import type { SecretSource } from '../../store/secrets.ts';
import type { StdioServerDefinition } from '../config/serverConfig.ts';
import { buildServerEnvironment } from '../stdio/serverEnvironment.ts';
import { prepareWorkingFolder } from '../stdio/serverFolder.ts';
import { launchProblem } from '../stdio/launchFailure.ts';
import { StdioProcessTransport } from '../stdio/stdioProcessTransport.ts';

export interface StdioHooks {
  onStderrLine(line: string): void;
  onNoise(line: string): void;
  onExit(info: { code: number | null; signal: string | null }): void;
}

export async function openStdioTransport(
  def: StdioServerDefinition,
  hooks: StdioHooks,
  limits: { maxMessageBytes?: number; closeGraceMs?: number; workingFolder?: string } = {},
  gate?: LaunchGate,
  secrets?: SecretSource,
  sandbox?: LaunchSandbox,
): Promise<StdioProcessTransport> {
  // The secrets its definition names are put in on the way to the process, never into the definition the gate pins.
  const running = await withSecrets(def, secrets);
  const env = await buildServerEnvironment(running.env);
  // A folder the definition names must be there already (its absence is the person's to fix); Atrium's own is made.
  const cwd = def.cwd ?? limits.workingFolder;
  if (def.cwd === undefined && limits.workingFolder !== undefined) await prepareWorkingFolder(limits.workingFolder);
  // Checked with the very environment it gets, as late as can be: a script edited or a program put
  // earlier on the PATH since the person approved it is not run.
  const hold = await gate?.confirm(def, env);
  if (hold) {
    throw new LaunchHeldError(
      hold,
      hold.kind === 'blocked'
        ? `${def.id}: ${describeBlock(hold.block)}`
        : `${def.id}: what it runs changed since you approved it (a script it runs, or the program its command finds); review it before it starts`,
    );
  }
  const launch = {
    command: running.command,
    args: running.args,
    env,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(limits.maxMessageBytes ? { maxMessageBytes: limits.maxMessageBytes } : {}),
    ...(limits.closeGraceMs !== undefined ? { closeGraceMs: limits.closeGraceMs } : {}),
  };
  if (!sandbox) return new StdioProcessTransport(launch, hooks);
  // Checked here, on the server's own command: inside the sandbox a missing one would be only an exit code.
  const problem = launchProblem(launch);
  if (problem) throw problem;
  const enclosed = await sandbox.enclose(def, launch, hooks);
  return new StdioProcessTransport(enclosed.launch, enclosed.hooks);
}
