// One view's bridge: ext-apps' AppBridge over the view transport, and what Atrium answers to each thing a
// view asks. Tool calls go to the host (the approval dialog); a message to send, a link to open, files to
// save and a bigger display mode each become the one question the view may have open in its card
// (viewQuestions.ts), and happen only on the person's yes.
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiDisplayMode, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import { checkOfferedAddress } from '../../../../../shared/offeredAddress.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import type { ToolViewDocument, ViewPermission } from '../contract/viewSandbox.ts';
import { CallTeller } from './callTeller.ts';
import type { ViewedCall } from './viewedCall.ts';
import { filesToSave, saveFiles } from './viewDownloads.ts';
import { ONE_QUESTION_AT_A_TIME } from './viewQuestions.ts';
import type { ViewQuestions } from './viewQuestions.ts';
import type { ViewStop } from './viewTransport.ts';
import { ViewTransport } from './viewTransport.ts';

/** The longest message a view may propose for the person to send. */
export const MAX_PROPOSED_MESSAGE_CHARS = 10_000;

export interface ViewBridgeOptions {
  api: AtriumClientApi;
  call: ViewedCall;
  document: ToolViewDocument;
  /** The browser permissions the person allowed, of those the view asks for. */
  allowed: readonly ViewPermission[];
  /** The relay frame's window and its origin. */
  frame: Window;
  sandboxOrigin: string;
  hostContext: McpUiHostContext;
  questions: ViewQuestions;
  /** The display mode the view is in now. */
  mode(): McpUiDisplayMode;
  /** Puts the view in a mode (it is told). */
  setMode(mode: McpUiDisplayMode): void;
  setHeight(height: number): void;
  /** Something the person should know, said under the view. */
  notice(text: string): void;
  /** What the view told the model, as kept. */
  modelContext(text: string): void;
  /** The view closed itself, or was stopped: it goes back to its offer, with why. */
  closed(note: string): void;
}

export interface ViewBridge {
  bridge: AppBridge;
  /** Tells the view its call as it is now. */
  follow(call: ViewedCall): void;
  close(): void;
}

const stopNotes: Record<ViewStop, string> = {
  flood: 'It was stopped: it sent more messages than a view may.',
  'too-large': 'It was stopped: it sent messages larger than a view may.',
};

export function connectViewBridge(options: ViewBridgeOptions): ViewBridge {
  const { api, call, document, questions } = options;
  const transport = new ViewTransport({ frame: options.frame, sandboxOrigin: options.sandboxOrigin, onstop: (why) => options.closed(stopNotes[why]) });
  const bridge = new AppBridge(
    null,
    { name: 'Atrium', version: '1' },
    { openLinks: {}, serverTools: {}, downloadFile: {}, message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
    { hostContext: options.hostContext },
  );
  const teller = new CallTeller(bridge);
  const viewOf = { serverId: call.serverId, tool: call.tool };
  // Calls this view asked for that have not ended: when the view goes (closed, stopped, scrolled away),
  // they are called off, and a question still waiting for the person is taken back.
  const inFlight = new Set<string>();
  /** The person's answer, or the view hears it must wait for the question it already has open. */
  const ask = (question: Parameters<ViewQuestions['ask']>[0]): Promise<boolean> => questions.ask(question) ?? Promise.reject(new Error(ONE_QUESTION_AT_A_TIME));

  bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: document.html, permissions: Object.fromEntries(options.allowed.map((permission) => [permission, {}])) });
  bridge.oninitialized = () => teller.initialized();
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) options.setHeight(height);
  };
  bridge.oncalltool = async (params) => {
    const callId = crypto.randomUUID();
    inFlight.add(callId);
    try {
      return await api.callToolFromView({ conversationId: call.conversationId, viewOf, tool: params.name, arguments: params.arguments ?? {}, callId });
    } catch (error) {
      return { content: [{ type: 'text', text: errorMessage(error) }], isError: true };
    } finally {
      inFlight.delete(callId);
    }
  };
  bridge.onmessage = async (params) => {
    const text = params.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n')
      .trim();
    if (!text) return { isError: true };
    if (text.length > MAX_PROPOSED_MESSAGE_CHARS) {
      options.notice(`It asked to send a message of ${text.length.toLocaleString('en')} characters; a view may propose ${MAX_PROPOSED_MESSAGE_CHARS.toLocaleString('en')} at most.`);
      return { isError: true };
    }
    // What is sent is the text the person was shown: the question holds it, and nothing replaces it.
    if (!(await ask({ kind: 'message', text }))) return { isError: true };
    try {
      await api.sendMessage({ conversationId: call.conversationId, text });
      return {};
    } catch (error) {
      options.notice(`The message was not sent: ${errorMessage(error)}`);
      return { isError: true };
    }
  };
  bridge.onopenlink = async ({ url }) => {
    const verdict = checkOfferedAddress(url);
    if (!verdict.ok) {
      options.notice(`A link it asked to open was not opened: ${verdict.reason}.`);
      return { isError: true };
    }
    if (!(await ask({ kind: 'link', address: verdict.address }))) return { isError: true };
    window.open(verdict.address.href, '_blank', 'noopener,noreferrer');
    return {};
  };
  bridge.ondownloadfile = async ({ contents }) => {
    let files;
    try {
      files = await filesToSave(api, call.serverId, contents);
    } catch (error) {
      options.notice(`A file it asked to save was not saved: ${errorMessage(error)}.`);
      return { isError: true };
    }
    if (files.length === 0 || !(await ask({ kind: 'download', files }))) return { isError: true };
    saveFiles(files);
    return {};
  };
  bridge.onrequestdisplaymode = async ({ mode: asked }) => {
    const now = options.mode();
    if (asked === now) return { mode: now };
    // Back into its card it may always go; out of it only when the person says so, each time.
    if (asked !== 'fullscreen' && asked !== 'pip') {
      options.setMode('inline');
      return { mode: 'inline' };
    }
    const yes = await ask({ kind: 'display', mode: asked }).catch(() => false);
    if (yes) options.setMode(asked);
    return { mode: options.mode() };
  };
  bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
    const parts = (content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : []));
    if (structuredContent !== undefined) parts.push(JSON.stringify(structuredContent));
    try {
      const { kept } = await api.setViewContext({ conversationId: call.conversationId, callId: call.id, viewOf, text: parts.join('\n') });
      options.modelContext(kept);
      return {};
    } catch (error) {
      // The view hears why (a JSON-RPC error), as a server's refusal.
      throw new Error(errorMessage(error));
    }
  };
  bridge.onrequestteardown = () => options.closed('It closed itself.');
  void bridge.connect(transport);

  return {
    bridge,
    follow: (current) => teller.follow(current),
    close: () => {
      questions.close();
      for (const callId of inFlight) void api.cancelCall({ callId }).catch(() => undefined);
      void bridge.close();
    },
  };
}
