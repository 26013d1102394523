import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { SavedToolResult } from '../../../../../shared/conversation.ts';
import type { ViewedCall } from './viewedCall.ts';

type CallListener = Pick<AppBridge, 'sendToolInput' | 'sendToolResult' | 'sendToolCancelled'>;

/**
 * Tells a view its call as the call goes on after the view started (the person deciding, the server
 * answering): each step once, in order — the arguments once the call was allowed, then its result or that
 * it was cancelled; or only that it was not made. Nothing is told before the view said it is ready.
 */
export class CallTeller {
  private ready = false;
  private toldInput = false;
  private ended = false;
  private latest: ViewedCall | undefined;
  private readonly view: CallListener;

  constructor(view: CallListener) {
    this.view = view;
  }

  /** The view finished starting (ui/notifications/initialized). */
  initialized(): void {
    this.ready = true;
    if (this.latest) this.follow(this.latest);
  }

  /** The call as it is now: what is new since the last time is told. */
  follow(call: ViewedCall): void {
    this.latest = call;
    if (!this.ready || this.ended) return;
    if (call.arguments && !this.toldInput) {
      this.toldInput = true;
      void this.view.sendToolInput({ arguments: call.arguments });
    }
    if (call.notRun !== undefined) {
      this.ended = true;
      void this.view.sendToolCancelled({ reason: call.notRun });
    } else if (!this.toldInput) {
      return;
    } else if (call.cancelled) {
      this.ended = true;
      void this.view.sendToolCancelled({ reason: 'The call was cancelled.' });
    } else if (call.result) {
      this.ended = true;
      void this.view.sendToolResult(resultForView(call.result));
    }
  }
}

/** The saved result as the view receives it; a call that failed reaches it as an error result. */
function resultForView(result: SavedToolResult): CallToolResult {
  if (result.error !== undefined) return { content: [{ type: 'text', text: result.error }], isError: true };
  return {
    content: (result.content ?? []) as CallToolResult['content'],
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}
