import { useEffect, useRef, useState } from 'react';
import type { McpUiDisplayMode, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ViewedCall } from './viewedCall.ts';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import { viewAllowAttribute, viewSandboxQuery } from '../contract/viewSandbox.ts';
import type { ToolViewDocument, ViewPermission } from '../contract/viewSandbox.ts';
import type { AtriumClientApi } from '../../../../../shared/contract.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import { connectViewBridge } from './connectViewBridge.ts';
import type { ViewBridge } from './connectViewBridge.ts';
import { useViewTheme } from './useViewTheme.ts';
import { viewStyleVariables } from './viewStyles.ts';
import { ViewQuestions } from './viewQuestions.ts';
import type { OpenQuestion } from './viewQuestions.ts';
import { ViewQuestionPanel } from './ViewQuestionPanel.tsx';

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

/**
 * A shown view: its frame in the view sandbox, the bridge to it, the question it may have open, and the
 * display modes. It fills the window or floats only when the person clicks for it (Atrium's own buttons
 * under it, or their yes to the view's request), always inside Atrium's bar naming whose page it is, with
 * an exit the view cannot undo: asking again is a new question.
 */
export function ViewFrame({ api, call, tool, document, allowed, sandbox, label, onClosed }: ViewFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const bridgeRef = useRef<ViewBridge | null>(null);
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const [mode, setModeState] = useState<McpUiDisplayMode>('inline');
  const modeRef = useRef<McpUiDisplayMode>('inline');
  const floatingCall = useAtriumStore((state) => state.floatingView?.callId);
  const setFloatingView = useAtriumStore((state) => state.setFloatingView);
  // One place decides a mode: the view is told, and the chat knows which view floats.
  const changeMode = useRef<(next: McpUiDisplayMode) => void>(() => undefined);
  changeMode.current = (next) => {
    modeRef.current = next;
    setModeState(next);
    void bridgeRef.current?.bridge.sendHostContextChange({ displayMode: next, containerDimensions: containerFor(next, frame.current?.parentElement?.clientWidth ?? 800) });
    const floats = useAtriumStore.getState().floatingView?.callId === call.id;
    if (next === 'pip') setFloatingView({ callId: call.id, messageId: call.messageId });
    else if (floats) setFloatingView(null);
  };
  const [question, setQuestion] = useState<OpenQuestion | null>(null);
  // One per connection of the bridge, made with it: a question never outlives the bridge it came by.
  const questionsRef = useRef<ViewQuestions | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // What this view told the model (ui/update-model-context): shown under it, as the model reads it.
  const [modelContext, setModelContext] = useState<string | null>(null);
  const theme = useViewTheme();
  const sandboxOrigin = new URL(sandbox).origin;
  const src = `${sandbox}?${viewSandboxQuery(window.location.origin, document.csp)}`;

  useEffect(() => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const hostContext: McpUiHostContext = {
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
    let current = true;
    const questions = new ViewQuestions(setQuestion);
    questionsRef.current = questions;
    api.listViewContext({ conversationId: call.conversationId }).then(
      (entries) => {
        const said = entries.find((entry) => entry.callId === call.id);
        if (current && said) setModelContext((shown) => shown ?? said.text);
      },
      () => undefined,
    );
    const connected = connectViewBridge({
      api,
      call,
      document,
      allowed,
      frame: target,
      sandboxOrigin,
      hostContext,
      questions,
      mode: () => modeRef.current,
      setMode: (next) => changeMode.current(next),
      setHeight: (asked) => setHeight(Math.max(24, Math.min(MAX_INLINE_HEIGHT, Math.ceil(asked)))),
      notice: setNotice,
      modelContext: setModelContext,
      closed: onClosed,
    });
    bridgeRef.current = connected;
    return () => {
      current = false;
      if (useAtriumStore.getState().floatingView?.callId === call.id) useAtriumStore.getState().setFloatingView(null);
      bridgeRef.current = null;
      questionsRef.current = null;
      connected.close();
      setQuestion(null);
    };
    // The bridge lives as long as this frame: a new call or document is a new ViewFrame (its key).
  }, []);

  // The call goes on after the view starts: each step reaches the view once it may know it (viewedCall.ts).
  useEffect(() => bridgeRef.current?.follow(call), [call]);

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
    void bridgeRef.current?.bridge.sendHostContextChange({ theme, styles: { variables: viewStyleVariables() } });
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
          <div className="tool-view-bar" role="toolbar" aria-label="Atrium’s frame around the view">
            <span className="tool-view-bar-title">
              <strong>
                <UntrustedText text={call.serverId} />
              </strong>
              ’s view of <UntrustedText text={call.tool} />
              {mode === 'fullscreen' ? (
                <span className="muted">
                  {' '}
                  · a page of <UntrustedText text={call.serverId} />, not of Atrium: what you type in it goes to the server
                </span>
              ) : null}
            </span>
            <button type="button" className="button button-small" onClick={() => changeMode.current('inline')}>
              {/* The same words as the card's own button for it: one action, one name. */}
              {mode === 'fullscreen' ? 'Exit full screen' : 'Back in the card'}
            </button>
          </div>
        ) : null}
        {question ? <ViewQuestionPanel open={question} serverId={call.serverId} onAnswer={(yes) => questionsRef.current?.answer(question.id, yes)} /> : null}
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
        {mode === 'inline' ? (
          <div className="row-actions tool-view-controls">
            <button type="button" className="button button-small" onClick={() => changeMode.current('fullscreen')}>
              Full screen
            </button>
            <button type="button" className="button button-small" onClick={() => changeMode.current('pip')}>
              Picture-in-picture
            </button>
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
