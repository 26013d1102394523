// The files a person edits by hand (servers.json, providers.json), as a one-shot command meets them
// before it starts: one that cannot be read stays where it is, its problem is said (the line and column
// of the mistake), and the command stops rather than carry on as if the file were empty.

import { readServersFile, serversFilePath } from '../mcp/config/serversFile.ts';
import { readProvidersFile } from '../store/settingsStore.ts';

/**
 * Whether a file the command reads cannot be read: `atrium import` writes its target (the home's
 * servers.json, or --config's file); every other command reads the home's providers.json and its
 * servers.json (a --config file is reported by the command itself). Each damaged file was reported
 * where the front end logs data-file problems.
 */
export async function personFilesDamaged(home: string, command: { importing: boolean; configPath?: string }): Promise<boolean> {
  const servers = command.importing || command.configPath === undefined ? command.configPath ?? serversFilePath(home) : undefined;
  const reads = await Promise.all([servers === undefined ? undefined : readServersFile(servers, 'leave'), command.importing ? undefined : readProvidersFile(home)]);
  return reads.some((read) => read?.kind === 'damaged');
}
