// Where API keys come from. The windows keep the keys a person types in an encrypted store (the Electron
// shell's wrapped by the OS keychain); the CLI and tests read an environment variable or a file the
// person names. A secret's value is only ever
// handed to the provider that needs it: never logged, never stored in the history, never sent to a server.

import { readFile } from 'node:fs/promises';

export interface SecretSource {
  /** The secret's value, or undefined when it is not set. */
  get(name: string): Promise<string | undefined>;
  /** Where the person gives this secret, in their words, for saying that it is missing ("give it its key in Settings › Model providers"). */
  whereToGive?(name: string): string;
}

/** Secrets from environment variables: the secret named "anthropic" is read from ATRIUM_SECRET_ANTHROPIC. */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): SecretSource {
  return {
    get: async (name) => {
      const value = env[atriumSecretVariable(name)];
      return value === undefined || value === '' ? undefined : value;
    },
  };
}

/** Secrets from a JSON file of {"name": "value"} the person names (e.g. `--secrets ~/.atrium-keys.json`). */
export function fileSecrets(path: string): SecretSource {
  let loaded: Promise<Record<string, unknown>> | undefined;
  return {
    get: async (name) => {
      loaded ??= readFile(path, 'utf8').then((text) => JSON.parse(text) as Record<string, unknown>);
      const value = (await loaded)[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
  };
}

/** The first source that has the secret wins. */
export function chainSecrets(...sources: SecretSource[]): SecretSource {
  return {
    get: async (name) => {
      for (const source of sources) {
        const value = await source.get(name);
        if (value !== undefined) return value;
      }
      return undefined;
    },
  };
}

const conventionalKeyVariables: Readonly<Record<string, string>> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

/** The environment variables a secret can be given in: ATRIUM_SECRET_<NAME>, and the SDK's usual one if it has one. */
export function secretVariables(name: string): string[] {
  const conventional = Object.hasOwn(conventionalKeyVariables, name) ? conventionalKeyVariables[name] : undefined;
  return [...(conventional ? [conventional] : []), atriumSecretVariable(name)];
}

function atriumSecretVariable(name: string): string {
  return `ATRIUM_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The provider SDKs' usual variables, for people who already have them set: ANTHROPIC_API_KEY, OPENAI_API_KEY. */
export function conventionalKeySecrets(env: NodeJS.ProcessEnv = process.env): SecretSource {
  return {
    get: async (name) => {
      const variable = Object.hasOwn(conventionalKeyVariables, name) ? conventionalKeyVariables[name] : undefined;
      const value = variable ? env[variable] : undefined;
      return value === undefined || value === '' ? undefined : value;
    },
  };
}

/** What a window's host reads keys from: the environment first (as the CLI does), then the keys typed into the window. */
export function windowSecrets(store?: SecretSource): SecretSource {
  return chainSecrets(environmentSecrets(), conventionalKeySecrets(), ...(store ? [store] : []));
}
