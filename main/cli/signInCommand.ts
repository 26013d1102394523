// `atrium sign-in <server>` and `atrium sign-out <server>`: OAuth for a remote server from the terminal.
// Sign-in connects first (so the server's own challenge decides the scopes, as in the window), prints
// the authorization page's full address for the person to open — the CLI opens nothing itself — and
// waits for their browser to come back to the loopback redirect; Ctrl+C or the time limit ends the wait
// and closes the listener. Sign-ins are kept where the browser mode keeps them (cliCredentialStore), so
// a later CLI run, or `npm run web`, is still signed in.

import { nearestWord } from '../../shared/nearestWord.ts';
import type { ServerSnapshot, ServerStatus } from '../../shared/domain.ts';
import type { HostCore } from '../app/hostCore.ts';
import { NO_RESTARTS, startHostCore } from '../app/hostCore.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import type { CliInvocation } from './cliArgs.ts';
import { CliFailure } from './cliArgs.ts';
import { formatSignedIn, formatSignedOut, visible } from './formatOutput.ts';

export interface SignInIo {
  out(text: string): void;
  err(text: string): void;
}

/** How long a sign-in waits for the browser unless --timeout says otherwise. */
const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * Where every CLI command keeps and finds remote servers' sign-ins: the home's encrypted `secrets.enc`
 * (its data key in `secrets.key`, readable by this user only), the store the browser mode uses.
 */
export function cliCredentialStore(home: string): WritableSecrets {
  return encryptedFileSecrets(home);
}

export async function runSignIn(invocation: CliInvocation, home: string, io: SignInIo, signal?: AbortSignal): Promise<number> {
  const [serverId = ''] = invocation.args;
  const waitMs = invocation.timeoutMs ?? DEFAULT_WAIT_MS;
  // With --json, standard output carries only the result; the instructions for the person go to stderr.
  const tell = invocation.json ? io.err : io.out;
  const core = await startCore(invocation, home, {
    mode: 'when-asked',
    timeoutMs: waitMs,
    openAuthorizationUrl: (url) => {
      tell(`To sign in to ${visible(serverId)}, open this address in your browser:`);
      tell(url);
      tell(`Waiting for the browser to come back (up to ${spell(waitMs)}; Ctrl+C cancels)…`);
    },
  });
  // Ctrl+C calls the sign-in off as the window's Cancel does (the loopback redirect closes, the request
  // under way stops), and whatever the sign-in was waiting for, the command ends at once.
  const cancel = () => void core.api.cancelSignIn({ serverId });
  signal?.addEventListener('abort', cancel, { once: true });
  const cancelled = new Promise<'cancelled'>((resolve) => {
    if (signal?.aborted) resolve('cancelled');
    signal?.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
  const signingIn = signIn(core, serverId);
  try {
    const outcome = await Promise.race([signingIn, cancelled]);
    if (outcome === 'cancelled') {
      signingIn.catch(() => undefined);
      io.err(`atrium: the sign-in to ${serverId} was cancelled`);
      return 130;
    }
    if (invocation.json) io.out(JSON.stringify(outcome, null, 2));
    else io.out(formatSignedIn(serverId, outcome.auth, Date.now()));
    return 0;
  } finally {
    signal?.removeEventListener('abort', cancel);
    await core.shutdown();
  }
}

/** Connects, then signs in to the server that asked for it. */
async function signIn(core: HostCore, serverId: string): Promise<ServerSnapshot> {
  const server = await remoteServer(core, serverId);
  if (server.status.kind === 'disabled') throw new CliFailure(`${serverId} is disabled; enable it first`);
  // Connect first, so the server's own challenge decides what the sign-in asks for.
  await core.api.restartServer({ serverId });
  const settled = await remoteServer(core, serverId, await core.whenSettled());
  // Only a server that asked for authorization (or holds a sign-in) has one to sign in to.
  if (!settled.auth) {
    throw new CliFailure(
      settled.status.kind === 'ready' ? `${serverId} needs no sign-in: it connected without asking for authorization` : `cannot sign in: ${describe(settled.status)}`,
    );
  }
  return core.api.signIn({ serverId });
}

export async function runSignOut(invocation: CliInvocation, home: string, io: SignInIo): Promise<number> {
  const [serverId = ''] = invocation.args;
  // Signing out needs no connection: the stored sign-in names the authorization server to tell.
  const core = await startCore(invocation, home, { mode: 'when-asked' });
  try {
    await remoteServer(core, serverId);
    const { report } = await core.api.signOut({ serverId });
    if (invocation.json) io.out(JSON.stringify({ serverId, ...report }, null, 2));
    else io.out(formatSignedOut(serverId, report));
    return 0;
  } finally {
    await core.shutdown();
  }
}

type SignInOptions = NonNullable<Parameters<typeof startHostCore>[0]['signIn']>;

/** A host with the one server added but not started: the command decides whether it connects. */
function startCore(invocation: CliInvocation, home: string, signIn: SignInOptions): Promise<HostCore> {
  const [serverId = ''] = invocation.args;
  return startHostCore({
    home,
    ...(invocation.configPath !== undefined ? { configPath: invocation.configPath } : {}),
    onlyServers: [serverId],
    startServers: false,
    signIn,
    credentialStore: cliCredentialStore(home),
    restartPolicy: NO_RESTARTS,
    keepAliveMs: 0,
    ...(invocation.timeoutMs !== undefined ? { requestTimeoutMs: invocation.timeoutMs, connectTimeoutMs: invocation.timeoutMs } : {}),
  });
}

/** The server to sign in to, as the API shows it: it must exist and be a remote one. */
async function remoteServer(core: HostCore, serverId: string, settled?: Map<string, ServerStatus>): Promise<ServerSnapshot> {
  const server = (await core.api.listServers({})).find((snapshot) => snapshot.id === serverId);
  if (!server) {
    // Only the one named was added to this host: the others are in the servers file.
    const meant = nearestWord(serverId, core.registry.all().flatMap((s) => (s.transport === 'stdio' ? [] : [s.id])));
    throw new CliFailure(`there is no server named "${serverId}" in ${core.configPath}${meant ? `: did you mean "${meant}"?` : ''}`);
  }
  if (server.transport === 'stdio') throw new CliFailure(`${serverId} is a stdio server: only remote servers (a "url" in the servers file) sign in`);
  const status = settled?.get(serverId);
  return status ? { ...server, status } : server;
}

function describe(status: ServerStatus): string {
  if (status.kind === 'error' || status.kind === 'needs-sign-in') return status.message;
  if (status.kind === 'restarting') return status.lastError;
  return status.kind;
}

function spell(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
