// Opens a Session for a server definition: picks the transport, falls back where the spec says to, and
// remembers what it learnt (the protocol era; that an HTTP server only speaks legacy SSE) so restarts
// go straight to what works. A local server's process is started before the session's code (the SDK)
// is loaded (sessionCode.ts): the server starts up while Atrium loads what speaks to it.

import type { PriorDiscovery, Tool } from '@modelcontextprotocol/client';
import type { TransportKind } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { ServerError } from './serverError.ts';
import { openStdioTransport } from './openStdioTransport.ts';
import type { FetchWrapper } from './openRemoteTransport.ts';
import { findAuthorizationFailure } from './remoteAuthorization.ts';
import { DEFAULT_MAX_MESSAGE_BYTES, formatMegabytes } from '../oversizedMessage.ts';
import type { Session, SessionOptions } from './session.ts';
import type { EraMemory } from '../launch/learnedEras.ts';
import type { LaunchGate, LaunchSandbox } from './connectionServices.ts';
import { withSecrets } from '../config/secretReferences.ts';
import type { SecretSource } from '../../store/secrets.ts';
import { HeldProcessHooks } from '../stdio/heldProcessHooks.ts';
import { loadSessionCode, processStart, sessionCodeLoaded } from './sessionCode.ts';

export interface TransportDefaults {
  /** The largest message read from a server (a stdio line, a JSON answer, an event) unless its definition says. */
  maxMessageBytes?: number;
  /** How long a stdio server has to exit when stopped. */
  closeGraceMs?: number;
  /** What the host learnt of servers' eras in earlier runs, and learns now. */
  eras?: EraMemory;
  /** Confirms, just before each spawn, that what the server runs is what the person approved. */
  launchGate?: LaunchGate;
  /** Where a server runs when its definition names no folder. */
  workingFolder?: string;
  /** Where the secrets a definition names are read. */
  secrets?: SecretSource;
  /** What each local server is enclosed in. */
  sandbox?: LaunchSandbox;
}

export class SessionOpener {
  private readonly definition: ServerDefinition;
  private readonly defaults: TransportDefaults;
  private readonly toolByName: (name: string) => Tool | undefined;
  /** The era learnt at the first connect, reused so a restart skips the discovery probe. */
  private prior: PriorDiscovery | undefined;
  /** Set once an HTTP server turned out to speak only the legacy HTTP+SSE transport. */
  private usesLegacySse = false;

  /** Puts the server's credentials on each HTTP request (the host's OAuth); absent for stdio. */
  private readonly wrapFetch: FetchWrapper | undefined;

  constructor(definition: ServerDefinition, defaults: TransportDefaults, toolByName: (name: string) => Tool | undefined, wrapFetch?: FetchWrapper) {
    this.definition = definition;
    this.defaults = defaults;
    this.toolByName = toolByName;
    this.wrapFetch = wrapFetch;
  }

  /** The transport in use, as the person should see it. */
  get transport(): TransportKind {
    return this.usesLegacySse ? 'sse' : this.definition.transport;
  }

  /** `stillWanted` turns false when the connection was stopped or restarted meanwhile: no retry then. */
  async open(options: SessionOptions, stillWanted: () => boolean): Promise<Session> {
    const def = this.definition;
    const maxMessageBytes = def.maxMessageBytes ?? this.defaults.maxMessageBytes;
    if (def.transport === 'stdio') {
      const limits = {
        ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
        ...(this.defaults.closeGraceMs !== undefined ? { closeGraceMs: this.defaults.closeGraceMs } : {}),
        ...(this.defaults.workingFolder !== undefined ? { workingFolder: this.defaults.workingFolder } : {}),
      };
      // Learnt in an earlier run: this server speaks only the 2025-era handshake, so no probe.
      if (this.prior === undefined && this.defaults.eras?.knownLegacy(def)) this.prior = { kind: 'legacy' };
      const spawn = async () => {
        const hooks = new HeldProcessHooks(options.log);
        const transport = await processStart(async () => {
          const opened = await openStdioTransport(def, hooks, limits, this.defaults.launchGate, this.defaults.secrets, this.defaults.sandbox);
          opened.startAhead();
          return opened;
        });
        let handedOver = false;
        try {
          const { Session } = await loadSessionCode();
          return await Session.open(
            options,
            async (sessionHooks) => {
              handedOver = true;
              return hooks.handTo(sessionHooks, transport);
            },
            this.prior,
          );
        } catch (error) {
          // A process no session took over is stopped here: nothing else knows of it.
          if (!handedOver) await transport.close();
          throw error;
        }
      };
      const probed = this.prior === undefined;
      let session: Session;
      try {
        session = await spawn();
        if (probed) this.learnFromProbe(session, options);
      } catch (error) {
        // Some 2025-era servers exit on any request before initialize, which ends the discovery probe;
        // such a server is legacy, and gets a fresh process with the plain initialize handshake.
        if (this.prior || !stillWanted() || !closedDuringConnect(error)) throw error;
        options.log.add('info', 'host', 'the discovery probe failed; retrying with the 2025-era initialize handshake');
        this.prior = { kind: 'legacy' };
        session = await spawn();
        this.defaults.eras?.learnLegacy(def);
      }
      return this.remember(session);
    }
    // The address and headers as the server gets them: with the secrets the definition names put in.
    const remote = await withSecrets(def, this.defaults.secrets);
    const cap = maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const bounds = {
      maxMessageBytes: cap,
      onDiscarded: (error: Error) => options.log.add('warning', 'host', `protocol: ${error.message}`),
      onEndlessEvent: () => options.log.add('warning', 'host', `protocol: an event from the server went on past twice the ${formatMegabytes(cap)} MB cap without ending; Atrium stopped reading its stream`),
    };
    const [{ Session }, { openHttpTransport, openSseTransport, suggestsLegacySse }] = await Promise.all([loadSessionCode(), import('./openRemoteTransport.ts')]);
    if (!this.usesLegacySse) {
      try {
        return this.remember(await Session.open(options, async () => openHttpTransport(remote, this.toolByName, bounds, this.wrapFetch), this.prior));
      } catch (error) {
        // A server that wants a sign-in speaks Streamable HTTP: only signing in helps.
        if ((def.transport === 'http' && !suggestsLegacySse(error)) || findAuthorizationFailure(error)) throw error;
        options.log.add('notice', 'host', 'Streamable HTTP was refused; trying the legacy HTTP+SSE transport');
      }
    }
    const session = await Session.open(options, async () => openSseTransport(remote, bounds, this.wrapFetch), { kind: 'legacy' });
    this.usesLegacySse = true;
    return session;
  }

  /**
   * What a probed start tells of the server's era. It answered the probe as a 2025-era server does
   * (method not found): its next starts skip the probe's round trip, as for one that exits on it. It
   * left the probe unanswered: kept only the second start running (eras.probeUnanswered), since a modern
   * server slow to start once would otherwise lose its era for a week.
   */
  private learnFromProbe(session: Session, options: SessionOptions): void {
    const eras = this.defaults.eras;
    const def = this.definition;
    if (session.discoveryUnanswered) {
      options.log.add('notice', 'host', `no answer to the discovery probe within ${options.probeTimeoutMs} ms: started with the 2025-era handshake this time; the next start asks again`);
      eras?.probeUnanswered(def);
    } else if (session.priorDiscovery()?.kind === 'legacy') eras?.learnLegacy(def);
    else eras?.probeAnswered(def);
  }

  private remember(session: Session): Session {
    // An unanswered probe is no verdict: a restart asks again.
    if (!session.discoveryUnanswered) this.prior = session.priorDiscovery() ?? this.prior;
    return session;
  }
}

/** A connection that closed during the handshake; the SDK's own error says so only once its code is loaded. */
function closedDuringConnect(error: unknown): boolean {
  if (error instanceof ServerError) return error.kind === 'unavailable';
  return sessionCodeLoaded()?.isConnectionClosed(error) === true;
}
