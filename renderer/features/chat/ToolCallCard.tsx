import { useState } from 'react';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import type { LiveToolCall } from '../../store/chatSlice.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

/** A saved tool call record, as getConversation returns it. */
export interface SavedToolCall {
  id: string;
  serverId: string;
  tool: string;
  arguments: Record<string, unknown>;
  status: string;
  result?: { content?: { type: string; text?: string; mimeType?: string; data?: string }[]; isError?: boolean; structuredContent?: unknown };
  startedAt?: number;
  finishedAt?: number;
  durationMs?: number;
  decidedBy?: string;
  error?: string;
}

const statusText: Record<string, string> = {
  awaiting_approval: 'Waiting for your approval',
  pending: 'Waiting',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  denied: 'Denied',
  invalid: 'Invalid arguments',
  cancelled: 'Cancelled',
};

/** One tool call inline in the chat: which server and tool, its arguments, progress, outcome and result. */
export function ToolCallCard({ saved, live }: { saved?: SavedToolCall; live?: LiveToolCall }) {
  const api = useAtriumApi();
  const [cancelError, setCancelError] = useState<string | null>(null);
  const callId = saved?.id ?? live?.callId ?? '';
  const serverId = saved?.serverId ?? live?.serverId ?? '';
  const tool = saved?.tool ?? live?.tool ?? '';
  const args = saved?.arguments ?? live?.arguments ?? {};
  const status = live?.status ?? saved?.status ?? 'pending';
  const running = status === 'running' || status === 'awaiting_approval';
  const started = saved?.startedAt ?? live?.startedAt;
  const ended = saved?.finishedAt ?? live?.endedAt;
  const duration = saved?.durationMs ?? (started !== undefined && ended !== undefined ? Math.max(0, ended - started) : undefined);
  const progress = live?.progress;
  const content = saved?.result?.content ?? [];

  return (
    <article className={`tool-call tool-call-${status}`} aria-label={`Tool call ${serverId}/${tool}`}>
      <header className="tool-call-head">
        <span className="tool-call-name">
          <UntrustedText text={serverId} /> / <UntrustedText text={tool} />
        </span>
        <span className="tool-call-status" role="status">
          {statusText[status] ?? status}
          {duration !== undefined ? ` · ${duration} ms` : ''}
        </span>
        {running ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setCancelError(null);
              api.cancelCall({ callId }).catch((error: unknown) => setCancelError(errorMessage(error)));
            }}
          >
            Cancel call
          </button>
        ) : null}
      </header>
      {progress ? (
        <div className="tool-call-progress">
          <progress value={progress.progress} max={progress.total ?? undefined} aria-label={`Progress of ${tool}`} />
          {progress.message ? <UntrustedText className="muted" text={progress.message} /> : null}
        </div>
      ) : null}
      <details>
        <summary>Arguments</summary>
        <pre className="code-block">
          <UntrustedText text={JSON.stringify(args, null, 2)} />
        </pre>
      </details>
      {content.length > 0 ? (
        <div className={saved?.result?.isError ? 'tool-result tool-result-error' : 'tool-result'} aria-label={`Result of ${tool}`}>
          {saved?.result?.isError ? <p className="tool-result-flag">The tool reported a failure:</p> : null}
          {content.map((block, index) =>
            block.type === 'text' ? (
              <pre key={index} className="tool-result-text">
                <UntrustedText text={block.text ?? ''} />
              </pre>
            ) : block.type === 'image' && block.data && block.mimeType?.startsWith('image/') ? (
              <img key={index} className="tool-result-image" alt={`Image returned by ${tool}`} src={`data:${block.mimeType};base64,${block.data}`} />
            ) : (
              <p key={index} className="muted">
                [{block.type}
                {block.mimeType ? ` ${block.mimeType}` : ''}]
              </p>
            ),
          )}
        </div>
      ) : live?.summary ? (
        <pre className="tool-result-text">
          <UntrustedText text={live.summary} />
        </pre>
      ) : null}
      {saved?.error ? (
        <p className="tool-call-error" role="alert">
          <UntrustedText text={saved.error} />
        </p>
      ) : null}
      {cancelError ? <p role="alert">{cancelError}</p> : null}
    </article>
  );
}
