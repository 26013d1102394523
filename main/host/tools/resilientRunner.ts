// Tool calls, made resilient without being reckless: a call is retried only when the
// tool is idempotent (as a trusted server's annotations say) and the failure was transient (the server
// was unavailable or did not answer in time), with backoff; and a per-server circuit breaker stops
// calling a server that keeps failing, for a cool-down, instead of piling calls onto it.

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ProgressUpdate } from '../../../shared/domain.ts';
import { ServerError } from '../../mcp/connection/serverError.ts';
import type { TaskPreference } from '../../mcp/extensions/tasks/sessionTasks.ts';
import type { TaskRun } from '../../mcp/extensions/tasks/taskRun.ts';

/** What runs an allowed call on its server: the hub, or a layer around it. Its result, or the task it started. */
export interface ToolRunner {
  call(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    options: {
      signal: AbortSignal;
      onProgress: (progress: Omit<ProgressUpdate, 'serverId' | 'callId'>) => void;
      /** The conversation the call serves: requests the server makes meanwhile are shown there. */
      conversationId?: string;
      /** The pipeline's id of the call: its messages in the server's trace are linked to it. */
      callId?: string;
      /** Whether the call may become a task where its server offers tasks (`prefer`: a tool that may run as one does). */
      task?: TaskPreference;
    },
  ): Promise<CallToolResult | TaskRun>;
}

export interface ResilienceOptions {
  /** Whether a repeated call is safe: the tool is idempotent or read-only by a trusted server's annotations. */
  isIdempotent(serverId: string, tool: string): boolean;
  maxRetries?: number;
  retryDelayMs?: number;
  /** Consecutive transient failures of a server that open its breaker. */
  failureThreshold?: number;
  cooldownMs?: number;
  now?: () => number;
}

interface Breaker {
  failures: number;
  openUntil: number;
}

export function createResilientRunner(inner: ToolRunner, options: ResilienceOptions): ToolRunner {
  const maxRetries = options.maxRetries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 250;
  const threshold = options.failureThreshold ?? 5;
  const cooldownMs = options.cooldownMs ?? 30_000;
  const now = options.now ?? Date.now;
  const breakers = new Map<string, Breaker>();

  return {
    call: async (serverId, tool, args, callOptions) => {
      const breaker = breakers.get(serverId) ?? { failures: 0, openUntil: 0 };
      breakers.set(serverId, breaker);
      const retries = options.isIdempotent(serverId, tool) ? maxRetries : 0;
      for (let attempt = 0; ; attempt++) {
        if (breaker.openUntil > now()) {
          const seconds = Math.ceil((breaker.openUntil - now()) / 1000);
          throw new ServerError(serverId, 'unavailable', `${serverId}: calls are paused for ${seconds} s after ${breaker.failures} failures in a row`);
        }
        try {
          const result = await inner.call(serverId, tool, args, callOptions);
          breaker.failures = 0;
          return result;
        } catch (error) {
          if (!isTransient(error) || callOptions.signal.aborted) throw error;
          breaker.failures++;
          // Past the threshold the breaker opens; after the cool-down one call is let through to try again.
          if (breaker.failures >= threshold) breaker.openUntil = now() + cooldownMs;
          if (attempt >= retries || breaker.openUntil > now()) throw error;
          await delay(retryDelayMs * 2 ** attempt, callOptions.signal);
        }
      }
    },
  };
}

function isTransient(error: unknown): boolean {
  return error instanceof ServerError && (error.kind === 'unavailable' || error.kind === 'timeout');
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
