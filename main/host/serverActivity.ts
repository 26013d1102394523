// Which conversations are waiting on which server right now. A server's own requests (elicitation,
// sampling) carry no conversation, but they arrive while a tool call to that server is running: that
// call's conversation is where the person expects to see them, and the only one sampling may draw
// context from.

import type { ToolRunner } from './tools/resilientRunner.ts';

export class ServerActivity {
  private readonly calls = new Map<string, string[]>();

  /** The conversation of the most recent call still running on the server, if any. */
  conversationFor(serverId: string): string | undefined {
    return this.calls.get(serverId)?.at(-1);
  }

  /** The runner, with each call's conversation noted while it runs. */
  track(runner: ToolRunner): ToolRunner {
    return {
      call: async (serverId, tool, args, options) => {
        const conversationId = options.conversationId;
        if (conversationId === undefined) return runner.call(serverId, tool, args, options);
        const running = this.calls.get(serverId) ?? [];
        running.push(conversationId);
        this.calls.set(serverId, running);
        try {
          return await runner.call(serverId, tool, args, options);
        } finally {
          running.splice(running.lastIndexOf(conversationId), 1);
          if (running.length === 0) this.calls.delete(serverId);
        }
      },
    };
  }
}
