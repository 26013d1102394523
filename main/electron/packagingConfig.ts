// electron-builder.yml as electron-builder itself loads and checks it (its own loader and schema), for
// the tests that hold the packaging to what the app needs and for the packaged build's fuse check.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Configuration } from 'electron-builder';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const require = createRequire(import.meta.url);

/** electron-builder.yml, loaded and validated by electron-builder; throws with its own message when invalid. */
export async function loadPackagingConfig(): Promise<Configuration> {
  // Not re-exported by electron-builder: its config module is the one `electron-builder` runs.
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
    getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<Configuration>;
    validateConfiguration(config: Configuration, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = await getConfig(projectRoot, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}
