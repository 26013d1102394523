// A value servers.json must not hold — an API key an installed server asks for — is kept in Atrium's
// encrypted secret store and written in the file as a reference, `${secret:NAME}`, the whole value or a
// part of it ("Bearer ${secret:NAME}"), in an environment variable, an argument, a header or the address.
// References are replaced only on the way to the server, when it starts: the launch approval pins the
// reference, never the value, and nothing logs the value.

import type { SecretSource } from '../../store/secrets.ts';

/** The parts of a server's definition a reference may be in (serverConfig.ts's definitions have them). */
type Referring = { id: string } & ({ transport: 'stdio'; env: Record<string, string>; args: string[] } | { transport: 'http' | 'sse'; url: string; headers: Record<string, string> });

const REFERENCE = /\$\{secret:([^}\s]{1,200})\}/g;

/** Every secret Atrium keeps for a server is named with this prefix (a provider's key never is). */
export const SERVER_SECRET_PREFIX = 'mcp-server:';

/** The name under which a server's value is kept: its server's name and the value's own. */
export function serverSecretName(serverId: string, key: string): string {
  return `${SERVER_SECRET_PREFIX}${serverId}:${key}`.replace(/[}\s]/g, '_');
}

/** What servers.json holds in place of the secret. */
export function secretReference(name: string): string {
  return `\${secret:${name}}`;
}

export function hasSecretReference(value: string): boolean {
  return new RegExp(REFERENCE.source).test(value);
}

/** A value with every reference put as `probe` (to check an address's shape without the secret in it). */
export function withoutSecretReferences(value: string, probe = 'secret'): string {
  return value.replace(REFERENCE, probe);
}

/** The names of the secrets a definition refers to. */
export function referencedSecrets(server: Referring): string[] {
  const values = server.transport === 'stdio' ? [...Object.values(server.env), ...server.args] : [server.url, ...Object.values(server.headers)];
  return [...new Set(values.flatMap((value) => [...value.matchAll(REFERENCE)].map((match) => match[1] ?? '')))];
}

/** Thrown when a secret a server's definition names is not in the store: said in the server's words. */
export class MissingSecretError extends Error {}

/** The definition as the server gets it: each reference replaced by the secret's value. */
export async function withSecrets<T extends Referring>(server: T, secrets: SecretSource | undefined): Promise<T> {
  const names = referencedSecrets(server);
  if (names.length === 0) return server;
  const values = new Map<string, string>();
  for (const name of names) {
    const value = await secrets?.get(name);
    if (value === undefined) {
      throw new MissingSecretError(
        `${server.id}: the secret "${name}" its definition names is not in this Atrium's secret store (a value given when it was installed, perhaps in another Atrium); install it again here to give it`,
      );
    }
    values.set(name, value);
  }
  const put = (value: string) => value.replace(REFERENCE, (_whole, name: string) => values.get(name) ?? '');
  const map = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key, put(value)]));
  if (server.transport === 'stdio') return { ...server, env: map(server.env), args: server.args.map(put) } as T;
  return { ...server, url: put(server.url), headers: map(server.headers) } as T;
}
