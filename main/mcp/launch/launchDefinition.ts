// A server's launch definition in two unkeyed forms that are never an approval by themselves: the
// variables known to decide which code a program loads (the risk analysis names them), and a fingerprint
// of the definition, which keys the learned eras and is how the approvals an older Atrium recorded
// (launch-approvals.json version 1) are recognised once, on upgrade. What an approval pins is launchPin.ts.

import { createHash } from 'node:crypto';
import type { ServerDefinition } from '../config/serverConfig.ts';

/** Variables whose value changes the code a program runs (a preloaded library, an interpreter's start-up file or module path). */
export const CODE_LOADING_ENV =
  /^(NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PYTHONUSERBASE|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|GEM_HOME|GEM_PATH|LUA_PATH|LUA_CPATH|CLASSPATH|BASH_ENV|ENV|ZDOTDIR|PATH|JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|_JAVA_OPTIONS)$/;

/** The variables an older Atrium pinned by value; the others it pinned by name. Frozen: it must keep recognising what was written. */
const FINGERPRINTED_VALUES = /^(NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS)$/;

/**
 * A SHA-256 over the command line, the names of the variables (values of the code-loading ones), the
 * working folder; or the address and the names of the headers. Exactly as launch-approvals.json
 * version 1 recorded it.
 */
export function definitionFingerprint(server: ServerDefinition): string {
  const view =
    server.transport === 'stdio'
      ? { transport: 'stdio', command: server.command, args: [...server.args], envNames: Object.keys(server.env).sort(), ...(server.cwd ? { cwd: server.cwd } : {}) }
      : { transport: server.transport, url: server.url, headerNames: Object.keys(server.headers).sort() };
  const pinnedValues =
    server.transport === 'stdio'
      ? Object.fromEntries(
          Object.entries(server.env)
            .filter(([name]) => FINGERPRINTED_VALUES.test(name))
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : {};
  return createHash('sha256').update(JSON.stringify({ view, pinnedValues })).digest('hex');
}
