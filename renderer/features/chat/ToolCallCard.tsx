import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { ToolCallRecord } from '../../../shared/conversation.ts';
import { offeredByNoServer, toolCallName } from '../../../shared/toolCallName.ts';
import { durationText } from '../../../shared/durationText.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import type { LiveToolCall } from '../../store/chatSlice.ts';
import { viewedCall } from '../../../main/mcp/extensions/apps/window/viewedCall.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { SignInHint } from './SignInHint.tsx';
import { ToolResultView } from './ToolResultView.tsx';
import { loadedBecause } from './toolsInUseText.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { taskOfCall } from '../../../main/mcp/extensions/tasks/window/tasksSlice.ts';
import { TaskStatus } from '../../../main/mcp/extensions/tasks/window/TaskStatus.tsx';
import { taskStatusText } from '../../../main/mcp/extensions/tasks/window/taskText.ts';
import { SandboxCallHint } from '../../../main/mcp/extensions/sandbox/window/SandboxCallHint.tsx';

// MCP Apps views load their bridge only when a server has views: most windows never need it.
const loadToolView = () => import('../../../main/mcp/extensions/apps/window/ToolView.tsx');
const ToolView = lazy(() => loadToolView().then((module) => ({ default: module.ToolView })));

/** Starts loading the view code once any server lists a tool with a view, so a view shows without that wait. */
export function usePreloadedViews(): void {
  const anyView = useAtriumStore((state) => Object.values(state.catalogs).some((catalog) => catalog.tools?.some((tool) => tool.view !== undefined) === true));
  useEffect(() => {
    if (anyView) void loadToolView();
  }, [anyView]);
}

const statusText: Record<string, string> = {
  composing: 'The model is writing its arguments',
  waiting: 'Waiting for its turn',
  awaiting_approval: 'Waiting for your approval',
  pending: 'Waiting',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  denied: 'Denied',
  invalid: 'Invalid arguments',
  cancelled: 'Cancelled',
  task: 'Running as a task',
};

/** A call in these states was sent to its server: its messages are in the server's trace. */
const reachedServer = new Set(['running', 'done', 'error', 'cancelled']);

/** The card takes the focus when someone asks to see its call (from the call's messages in a trace). */
function useFocusWhenAsked(callId: string) {
  const card = useRef<HTMLElement>(null);
  const asked = useAtriumStore((state) => (state.shownPlace && 'callId' in state.shownPlace && state.shownPlace.callId === callId && callId !== '' ? state.shownPlace : null));
  useEffect(() => {
    if (asked) card.current?.focus({ preventScroll: true });
  }, [asked]);
  return card;
}

interface ToolCallCardProps {
  saved?: ToolCallRecord;
  live?: LiveToolCall;
  /** Where a call of the reply being written belongs (a saved call says it itself): its view needs them. */
  conversationId?: string;
  messageId?: string;
}

/** One tool call inline in the chat: which server and tool, its arguments, progress, outcome and result. */
export function ToolCallCard({ saved, live, conversationId, messageId }: ToolCallCardProps) {
  const api = useAtriumApi();
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const callId = saved?.id ?? live?.callId ?? '';
  const serverId = saved?.serverId ?? live?.serverId ?? '';
  const tool = saved?.tool ?? live?.tool ?? '';
  const status = live?.status ?? saved?.status ?? 'pending';
  const composing = status === 'composing';
  const args = saved?.arguments ?? (composing ? live?.partialArguments : live?.arguments) ?? {};
  // MCP Tasks: a call its server runs on as a task has the task's status, Cancel and note instead.
  const task = useAtriumStore((state) => taskOfCall(state.tasks, saved?.conversationId ?? conversationId, callId));
  const running = (status === 'running' || status === 'awaiting_approval') && !task;
  // The saved duration is the host's measure; until it is saved, this window's own clock says.
  const duration = saved?.durationMs ?? (live?.startedAt !== undefined && live.endedAt !== undefined ? Math.max(0, live.endedAt - live.startedAt) : undefined);
  const progress = status === 'running' ? live?.progress : undefined;
  // When the call ran on its server: what its sandbox blocked meanwhile explains a failure.
  const ranFrom = saved?.startedAt ?? live?.startedAt;
  const ranUntil = saved?.finishedAt ?? live?.endedAt;
  const viewTool = useAtriumStore((state) => state.catalogs[serverId]?.tools?.find((t) => t.name === tool && t.view !== undefined));
  // While the model searches for tools: why it had this one (found by a search, always loaded, by hand).
  const loadedHow = useAtriumStore((state) => (state.toolsInUse?.tools.searching ? state.toolsInUse.tools.loaded.find((t) => t.serverId === serverId && t.tool === tool)?.how : undefined));
  // A view shows from the moment the model starts writing the call, and from what was saved once the call
  // ended, so a reopened conversation shows it again; it learns the call's arguments only once it is allowed.
  const viewed = viewedCall(saved, live, conversationId, messageId);
  const showServerTrace = useAtriumStore((state) => state.showServerTrace);
  const card = useFocusWhenAsked(callId);

  return (
    <article ref={card} tabIndex={-1} className={`tool-call tool-call-${task && task.endedAt === undefined ? 'task' : status}`} aria-label={`Tool call ${toolCallName({ serverId, tool }, '/')}`}>
      <header className="tool-call-head">
        <span className="tool-call-name">
          {offeredByNoServer({ serverId }) ? (
            <UntrustedText text={tool} />
          ) : (
            <>
              <UntrustedText text={serverId} /> / <UntrustedText text={tool} />
            </>
          )}
        </span>
        <span className="tool-call-status" role="status">
          {task ? taskStatusText(task) : (statusText[status] ?? status)}
          {duration !== undefined ? ` · ${durationText(duration)}` : ''}
        </span>
        {serverId && callId && reachedServer.has(status) ? (
          <button type="button" className="link-button tool-call-trace" onClick={() => showServerTrace(serverId, callId)}>
            Show messages
          </button>
        ) : null}
        {running ? (
          <button
            type="button"
            className="button button-small"
            disabled={cancelling}
            onClick={() => {
              setCancelError(null);
              setCancelling(true);
              api.cancelCall({ callId }).catch((error: unknown) => {
                setCancelling(false);
                setCancelError(errorMessage(error));
              });
            }}
          >
            {cancelling ? 'Cancelling…' : 'Cancel call'}
          </button>
        ) : null}
      </header>
      {task ? <TaskStatus task={task} inCard /> : null}
      {loadedHow ? <p className="tool-call-why muted">The model had this tool {loadedBecause(loadedHow)}.</p> : null}
      {progress ? (
        <div className="tool-call-progress">
          {/* Without a total the server only says it is still working: the bar moves without a value. */}
          {progress.total !== undefined ? (
            <progress value={progress.progress} max={progress.total} aria-label={`Progress of ${tool}`} />
          ) : (
            <progress aria-label={`Progress of ${tool}`} />
          )}
          {progress.message ? <UntrustedText className="muted" text={progress.message} /> : null}
        </div>
      ) : null}
      <details>
        <summary>Arguments</summary>
        <pre className="code-block">
          <UntrustedText text={JSON.stringify(args, null, 2)} />
        </pre>
      </details>
      {status === 'cancelled' ? (
        <p className="muted">Cancelled before it finished.</p>
      ) : saved?.result !== undefined && status !== 'running' ? (
        <ToolResultView serverId={serverId} tool={tool} result={saved.result} outputSchema={saved.outputSchema} />
      ) : live?.summary ? (
        <pre className="tool-result-text">
          <UntrustedText text={live.summary} />
        </pre>
      ) : null}
      {viewed && viewTool?.view ? (
        <Suspense fallback={<p className="tool-view-note muted">Loading the view…</p>}>
          <ToolView call={viewed} tool={{ ...viewTool, view: viewTool.view }} />
        </Suspense>
      ) : null}
      {status === 'error' && serverId ? <SignInHint serverId={serverId} /> : null}
      {status === 'error' && serverId && ranFrom !== undefined ? <SandboxCallHint serverId={serverId} since={ranFrom} until={ranUntil ?? ranFrom} /> : null}
      {cancelError ? <p role="alert">{cancelError}</p> : null}
    </article>
  );
}


