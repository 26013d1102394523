// A server's launch definition: what decides what runs on this computer or what is contacted, and its
// pin. Environment variables and headers count by name (a rotated key does not ask again), except the
// few variables that decide which code a program loads, whose values are pinned too.

import { createHash } from 'node:crypto';
import type { LaunchView } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';

/** Variables whose value changes the code a program runs (a preloaded library, an interpreter's start-up file). */
export const CODE_LOADING_ENV = /^(NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS)$/;

export function launchView(server: ServerDefinition): LaunchView {
  if (server.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: server.command,
      args: [...server.args],
      envNames: Object.keys(server.env).sort(),
      ...(server.cwd ? { cwd: server.cwd } : {}),
    };
  }
  return { transport: server.transport, url: server.url, headerNames: Object.keys(server.headers).sort() };
}

/** The pin of a definition: a SHA-256 over its launch view and the values of its code-loading variables. */
export function launchHash(server: ServerDefinition): string {
  const view = launchView(server);
  const pinnedValues =
    server.transport === 'stdio'
      ? Object.fromEntries(
          Object.entries(server.env)
            .filter(([name]) => CODE_LOADING_ENV.test(name))
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : {};
  return createHash('sha256').update(JSON.stringify({ view, pinnedValues })).digest('hex');
}

