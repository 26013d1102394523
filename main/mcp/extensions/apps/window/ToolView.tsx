import { useEffect, useRef, useState } from 'react';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { McpUiDisplayMode, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { SavedToolResult } from '../../../../../shared/conversation.ts';
import type { ViewedCall } from './viewedCall.ts';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import { declaredOrigins, viewAllowAttribute, viewSandboxQuery } from '../contract/viewSandbox.ts';
import type { ToolViewDocument, ViewPermission } from '../contract/viewSandbox.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { openOfferedAddress } from '../../../../../renderer/ui/openOfferedAddress.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import { ViewTransport } from './viewTransport.ts';
import { ViewPermissions } from './ViewPermissions.tsx';
import { useViewTheme } from './useViewTheme.ts';
import { downloadQuestion, filesToSave, saveFiles } from './viewDownloads.ts';
import { viewStyleVariables } from './viewStyles.ts';

/**
 * MCP Apps: the view a tool's result comes with, inline in its card. The view's page is read from its
 * server; from a server the person has not marked trusted it is shown only on their click, after the card
 * says what it is and what it may reach. It runs in the view sandbox (a relay page on an origin of its own,
 * the view framed inside with scripts only), and what it asks for goes through Atrium's own consent:
 * tool calls through the approval dialog, messages for the person to send, links through the link check.
 */
export function ToolView({ call, tool }: { call: ViewedCall; tool: ToolSummary & { view: { resourceUri: string } } }) {
  const api = useAtriumApi();
  const sandbox = useAtriumStore((state) => state.hostInfo?.viewSandbox);
  // A trusted server's views, or a server whose views the person chose to see, show without a click.
  const showsWithoutAsking = useAtriumStore(
    (state) => state.viewTrust.some((trust) => trust.serverId === call.serverId && trust.showsSince !== undefined) || state.servers.some((server) => server.id === call.serverId && server.trusted),
  );
  const granted = useAtriumStore((state) => state.viewTrust.find((trust) => trust.serverId === call.serverId)?.permissions);
  const [trustError, setTrustError] = useState<string | null>(null);
  const [document, setDocument] = useState<ToolViewDocument | null>(() => cachedDocument(call.serverId, call.tool));
  const [failure, setFailure] = useState<string | null>(null);
  const [shown, setShown] = useState(() => shownCalls.has(call.id));
  const [closedNote, setClosedNote] = useState<string | null>(null);

  useEffect(() => {
    if (document || !sandbox) return;
    let current = true;
    api.openToolView({ serverId: call.serverId, tool: call.tool }).then(
      (read) => {
        rememberDocument(read);
        if (current) setDocument(read);
      },
      (error: unknown) => current && setFailure(errorMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [api, call.serverId, call.tool, document, sandbox]);

  const label = `View of ${call.serverId}/${call.tool}`;
  if (!sandbox) {
    return (
      <p className="tool-view-note muted">
        This result has a view (<UntrustedText text={tool.view.resourceUri} />), which this window cannot show.
      </p>
    );
  }
  if (failure) return <p className="tool-view-note" role="alert">The view could not be shown: {failure}</p>;
  if (!document) return <p className="tool-view-note muted">Loading the view…</p>;
  // Of what the view asks for, what the person allowed the server's views: the frame gets only these.
  const allowed = document.permissions.filter((permission) => granted?.some((grant) => grant.permission === permission) === true);
  const permissions = <ViewPermissions serverId={call.serverId} asked={document.permissions} allowed={allowed} />;
  if (!shown && !showsWithoutAsking) {
    const origins = declaredOrigins(document.csp);
    return (
      <section className="tool-view-offer" aria-label={`${label}, not shown yet`}>
        <p>
          <UntrustedText text={call.serverId} /> offers a view of this result: <code><UntrustedText text={document.resourceUri} /></code>.
        </p>
        <p className="muted">
          {origins.length === 0 ? 'It declares no network access: it can reach nothing outside itself.' : 'It may reach: '}
          {origins.map((origin, index) => (
            <span key={origin}>
              {index > 0 ? ', ' : ''}
              <code>
                <UntrustedText text={origin} />
              </code>
            </span>
          ))}
          {closedNote ? ` ${closedNote}` : ''}
        </p>
        {document.dropped.length > 0 ? <p className="muted">Not allowed, as declared: {document.dropped.join('; ')}.</p> : null}
        {permissions}
        <div className="row-actions">
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              shownCalls.add(call.id);
              setShown(true);
            }}
          >
            Show view
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setTrustError(null);
              // The store hears the change (viewTrustChanged) and every view of this server shows.
              api.setViewTrust({ serverId: call.serverId, trusted: true }).catch((error: unknown) => setTrustError(errorMessage(error)));
            }}
          >
            Always show views from <UntrustedText text={call.serverId} />
          </button>
        </div>
        {trustError ? <p role="alert">{trustError}</p> : null}
      </section>
    );
  }
  return (
    <>
      <ViewFrame
        // A frame's permissions are fixed when it loads: one allowed or revoked starts the view again.
        key={`${call.id} ${allowed.join(' ')}`}
        api={api}
        call={call}
        tool={tool}
        document={document}
        allowed={allowed}
        sandbox={sandbox}
        label={label}
        onClosed={(note) => {
          shownCalls.delete(call.id);
          setClosedNote(note);
          setShown(false);
        }}
      />
      {permissions}
    </>
  );
}

interface ViewFrameProps {
  api: AtriumClientApi;
  call: ViewedCall;
  tool: ToolSummary;
  document: ToolViewDocument;
  /** The browser permissions the person allowed this server's views, of those this view asks for. */
  allowed: ViewPermission[];
  sandbox: string;
  label: string;
  onClosed(note: string): void;
}

/** The tallest a view grows inline; taller, it scrolls inside (fullscreen has the window's height). */
const MAX_INLINE_HEIGHT = 1600;
const INITIAL_HEIGHT = 160;
/** Picture-in-picture: a small window in the chat's corner (styles.css places it). */
const PIP_WIDTH = 420;
const PIP_MAX_HEIGHT = 320;

/** What the view is told of its container in each display mode. */
function containerFor(mode: McpUiDisplayMode, inlineWidth: number): McpUiHostContext['containerDimensions'] {
  if (mode === 'pip') return { maxHeight: PIP_MAX_HEIGHT, width: PIP_WIDTH };
  if (mode === 'fullscreen') return { height: window.innerHeight, width: window.innerWidth };
  return { maxHeight: MAX_INLINE_HEIGHT, maxWidth: inlineWidth };
}

function ViewFrame({ api, call, tool, document, allowed, sandbox, label, onClosed }: ViewFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const [mode, setMode] = useState<McpUiDisplayMode>('inline');
  const floatingCall = useAtriumStore((state) => state.floatingView?.callId);
  const setFloatingView = useAtriumStore((state) => state.setFloatingView);
  // One place decides a mode: the view is told, and the chat knows which view floats.
  const changeMode = useRef<(next: McpUiDisplayMode) => void>(() => undefined);
  changeMode.current = (next) => {
    setMode(next);
    void bridgeRef.current?.sendHostContextChange({ displayMode: next, containerDimensions: containerFor(next, frame.current?.parentElement?.clientWidth ?? 800) });
    const floats = useAtriumStore.getState().floatingView?.callId === call.id;
    if (next === 'pip') setFloatingView({ callId: call.id, messageId: call.messageId });
    else if (floats) setFloatingView(null);
  };
  const [proposal, setProposal] = useState<{ text: string; settle(sent: boolean): void } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // What this view told the model (ui/update-model-context): shown under it, as the model reads it.
  const [modelContext, setModelContext] = useState<string | null>(null);
  const theme = useViewTheme();
  // What the view was told of its call so far: the call goes on after the view starts (the model still
  // writing its arguments, the person approving, the server answering), and each step is told once.
  const told = useRef({ initialized: false, partial: '', input: false, ended: false });
  const tell = useRef<() => void>(() => undefined);
  tell.current = () => {
    const bridge = bridgeRef.current;
    if (!bridge || !told.current.initialized) return;
    if (call.arguments) {
      if (!told.current.input) {
        told.current.input = true;
        void bridge.sendToolInput({ arguments: call.arguments });
      }
    } else if (call.partialArguments) {
      const partial = JSON.stringify(call.partialArguments);
      if (partial !== told.current.partial) {
        told.current.partial = partial;
        void bridge.sendToolInputPartial({ arguments: call.partialArguments });
      }
    }
    if (told.current.ended || !told.current.input) return;
    if (call.cancelled) {
      told.current.ended = true;
      void bridge.sendToolCancelled({ reason: 'The call was cancelled.' });
    } else if (call.result) {
      told.current.ended = true;
      void bridge.sendToolResult(resultForView(call.result));
    }
  };
  useEffect(() => tell.current(), [call.partialArguments, call.arguments, call.result, call.cancelled]);
  const sandboxOrigin = new URL(sandbox).origin;
  const src = `${sandbox}?${viewSandboxQuery(window.location.origin, document.csp)}`;

  useEffect(() => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const transport = new ViewTransport({
      frame: target,
      sandboxOrigin,
      onflood: () => onClosed('It was stopped: it sent more messages than a view may.'),
    });
    const context: McpUiHostContext = {
      theme,
      styles: { variables: viewStyleVariables() },
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen', 'pip'],
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      platform: 'web',
      containerDimensions: containerFor('inline', frame.current?.clientWidth ?? 800),
      toolInfo: { id: call.id, tool: { name: tool.name, inputSchema: { type: 'object', ...tool.inputSchema }, ...(tool.description ? { description: tool.description } : {}) } },
    };
    const bridge = new AppBridge(
      null,
      { name: 'Atrium', version: '1' },
      { openLinks: {}, serverTools: {}, downloadFile: {}, message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
      { hostContext: context },
    );
    bridgeRef.current = bridge;
    const viewOf = { serverId: call.serverId, tool: call.tool };
    let current = true;
    // Calls this view asked for that have not ended: when the view goes (closed, stopped, scrolled away),
    // they are called off, and a question still waiting for the person is taken back.
    const inFlight = new Set<string>();
    api.listViewContext({ conversationId: call.conversationId }).then(
      (entries) => {
        const said = entries.find((entry) => entry.callId === call.id);
        if (current && said) setModelContext((shown) => shown ?? said.text);
      },
      () => undefined,
    );
    bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: document.html, permissions: Object.fromEntries(allowed.map((permission) => [permission, {}])) });
    bridge.oninitialized = () => {
      told.current.initialized = true;
      tell.current();
    };
    bridge.onsizechange = ({ height: asked }) => {
      if (typeof asked === 'number' && Number.isFinite(asked)) setHeight(Math.max(24, Math.min(MAX_INLINE_HEIGHT, Math.ceil(asked))));
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
      const sent = await new Promise<boolean>((settle) => setProposal({ text, settle }));
      return sent ? {} : { isError: true };
    };
    bridge.onopenlink = async ({ url }) => {
      const outcome = await openOfferedAddress(url, label);
      if (!outcome.opened) setNotice(`A link it asked to open was not opened: ${outcome.reason}.`);
      return outcome.opened ? {} : { isError: true };
    };
    bridge.ondownloadfile = async ({ contents }) => {
      try {
        const files = await filesToSave(api, call.serverId, contents);
        if (files.length === 0 || !window.confirm(downloadQuestion(label, files))) return { isError: true };
        saveFiles(files);
        return {};
      } catch (error) {
        setNotice(`A file it asked to save was not saved: ${errorMessage(error)}.`);
        return { isError: true };
      }
    };
    bridge.onrequestdisplaymode = async ({ mode: asked }) => {
      const granted: McpUiDisplayMode = asked === 'fullscreen' || asked === 'pip' ? asked : 'inline';
      changeMode.current(granted);
      return { mode: granted };
    };
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const parts = (content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : []));
      if (structuredContent !== undefined) parts.push(JSON.stringify(structuredContent));
      try {
        const { kept } = await api.setViewContext({ conversationId: call.conversationId, callId: call.id, viewOf, text: parts.join('\n') });
        setModelContext(kept);
        return {};
      } catch (error) {
        // The view hears why (a JSON-RPC error), as a server's refusal.
        throw new Error(errorMessage(error));
      }
    };
    bridge.onrequestteardown = () => onClosed('It closed itself.');
    void bridge.connect(transport);
    return () => {
      current = false;
      if (useAtriumStore.getState().floatingView?.callId === call.id) useAtriumStore.getState().setFloatingView(null);
      for (const callId of inFlight) void api.cancelCall({ callId }).catch(() => undefined);
      bridgeRef.current = null;
      void bridge.close();
    };
    // The bridge lives as long as this frame: a new call or document is a new ViewFrame (its key).
  }, []);

  // Another view floated: this one goes back into its card.
  useEffect(() => {
    if (mode === 'pip' && floatingCall !== call.id) changeMode.current('inline');
  }, [mode, floatingCall, call.id]);

  useEffect(() => {
    if (mode !== 'fullscreen') return;
    // Escape in Atrium's page (not inside the view, which keeps its own keys) brings the view back.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') changeMode.current('inline');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode]);

  useEffect(() => {
    // The variables resolve differently in the other theme: they go with it.
    void bridgeRef.current?.sendHostContextChange({ theme, styles: { variables: viewStyleVariables() } });
  }, [theme]);

  return (
    <>
    {mode === 'pip' ? (
      <p className="tool-view-note muted">
        Shown picture-in-picture, in the corner of the chat.{' '}
        <button type="button" className="button button-small" onClick={() => changeMode.current('inline')}>
          Back in the card
        </button>
      </p>
    ) : null}
    <section className={`tool-view tool-view-${mode}${document.prefersBorder ? ' tool-view-border' : ''}`} aria-label={label}>
      {mode === 'fullscreen' || mode === 'pip' ? (
        <div className="tool-view-bar">
          <UntrustedText text={label} />
          <button type="button" className="button button-small" onClick={() => changeMode.current('inline')}>
            {mode === 'fullscreen' ? 'Exit full screen' : 'Exit picture-in-picture'}
          </button>
        </div>
      ) : null}
      <iframe
        ref={frame}
        title={label}
        src={src}
        // The relay needs its own (other) origin to run; the view inside it gets scripts only.
        sandbox="allow-scripts allow-same-origin"
        // Only what the person allowed: a feature not named here is blocked in the view, whatever it asks.
        allow={viewAllowAttribute(allowed)}
        referrerPolicy="no-referrer"
        style={mode === 'inline' ? { height } : mode === 'pip' ? { height: Math.min(height, PIP_MAX_HEIGHT) } : undefined}
      />
      {proposal ? (
        <div className="tool-view-proposal" role="group" aria-label="Message from the view">
          <p>The view asks to send this message in the chat:</p>
          <blockquote>
            <UntrustedText text={proposal.text} />
          </blockquote>
          <div className="row-actions">
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => {
                const { text, settle } = proposal;
                setProposal(null);
                api.sendMessage({ conversationId: call.conversationId, text }).then(
                  () => settle(true),
                  (error: unknown) => {
                    setNotice(`The message was not sent: ${errorMessage(error)}`);
                    settle(false);
                  },
                );
              }}
            >
              Send it
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => {
                proposal.settle(false);
                setProposal(null);
              }}
            >
              Don’t send
            </button>
          </div>
        </div>
      ) : null}
      {modelContext ? (
        <details className="tool-view-context" aria-label="What this view tells the model">
          <summary>This view tells the model what you see in it</summary>
          <pre className="tool-result-text">
            <UntrustedText text={modelContext} />
          </pre>
        </details>
      ) : null}
      {notice ? <p className="tool-view-note muted">{notice}</p> : null}
    </section>
    </>
  );
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

// The list is virtualised: a card scrolled away unmounts (and its view with it) and mounts again when it
// comes back. The page read and the person's click are kept for this window's life so it shows straight away.
const shownCalls = new Set<string>();
const documents = new Map<string, ToolViewDocument>();
const MAX_DOCUMENTS = 8;

function cachedDocument(serverId: string, tool: string): ToolViewDocument | null {
  return documents.get(`${serverId}\n${tool}`) ?? null;
}

function rememberDocument(document: ToolViewDocument): void {
  const key = `${document.serverId}\n${document.tool}`;
  documents.delete(key);
  documents.set(key, document);
  if (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value as string);
}
