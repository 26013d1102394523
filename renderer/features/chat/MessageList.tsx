import { memo } from 'react';
import type { ConversationDetail } from '../../../shared/contract.ts';
import type { LiveTurn } from '../../store/chatSlice.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { MarkdownText } from './MarkdownText.tsx';
import type { SavedToolCall } from './ToolCallCard.tsx';
import { ToolCallCard } from './ToolCallCard.tsx';

type Block = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string } | { type: 'tool_use'; id: string; name: string } | { type: 'tool_result' };

interface SavedMessage {
  id: string;
  role: 'user' | 'assistant';
  origin?: { kind: 'prompt'; serverId: string; name: string };
  content: Block[];
  status: string;
  error?: string;
}

/** The saved conversation, then the step streaming now. */
export function MessageList({ detail, live }: { detail: ConversationDetail | null; live: LiveTurn | undefined }) {
  const messages = (detail?.messages ?? []) as unknown as SavedMessage[];
  const calls = new Map(((detail?.toolCalls ?? []) as unknown as SavedToolCall[]).map((call) => [call.id, call]));
  const liveCalls = new Map((live?.toolCalls ?? []).map((call) => [call.callId, call]));
  const unsavedCalls = (live?.toolCalls ?? []).filter((call) => !calls.has(call.callId));
  return (
    <ol className="messages" aria-label="Messages">
      {messages.map((message) =>
        message.id === live?.messageId ? null : <SavedMessageItem key={message.id} message={message} calls={calls} liveCalls={liveCalls} />,
      )}
      {live && (live.text || live.images.length > 0 || unsavedCalls.length > 0 || live.messageId) ? (
        <li className="message message-assistant" aria-label="Assistant (replying)" aria-busy="true">
          {live.text ? <MarkdownText text={live.text} /> : unsavedCalls.length === 0 ? <p className="muted typing">Thinking…</p> : null}
          {live.images.map((image, index) => (
            <img key={index} className="message-image" alt="Image the model generated" src={`data:${image.mimeType};base64,${image.data}`} />
          ))}
          {unsavedCalls.map((call) => (
            <ToolCallCard key={call.callId} live={call} />
          ))}
        </li>
      ) : null}
      {live?.notices.map((notice, index) => (
        <li key={`notice-${index}`} className="message-notice muted">
          {notice}
        </li>
      ))}
    </ol>
  );
}

/** A saved message re-renders only when it, or a call it made, changes. */
const SavedMessageItem = memo(function SavedMessageItem({
  message,
  calls,
  liveCalls,
}: {
  message: SavedMessage;
  calls: Map<string, SavedToolCall>;
  liveCalls: Map<string, NonNullable<LiveTurn['toolCalls']>[number]>;
}) {
  const visibleBlocks = message.content.filter((block) => block.type !== 'tool_result');
  if (visibleBlocks.length === 0 && message.role === 'user') return null;
  return (
    <li className={`message message-${message.role}`} aria-label={message.role === 'user' ? (message.origin ? `You, from prompt ${message.origin.name}` : 'You') : 'Assistant'}>
      {message.origin ? (
        <span className="chip message-origin">
          from prompt /<UntrustedText text={message.origin.name} /> · <UntrustedText text={message.origin.serverId} />
        </span>
      ) : null}
      {visibleBlocks.map((block, index) => {
        if (block.type === 'text') return message.role === 'assistant' ? <MarkdownText key={index} text={block.text} /> : <p key={index} className="message-text">{block.text}</p>;
        if (block.type === 'image') return <img key={index} className="message-image" alt={message.role === 'assistant' ? 'Image the model generated' : 'Attached image'} src={`data:${block.mimeType};base64,${block.data}`} />;
        if (block.type === 'tool_use') {
          const saved = calls.get(block.id);
          const live = liveCalls.get(block.id);
          return <ToolCallCard key={block.id} {...(saved ? { saved } : {})} {...(live ? { live } : {})} />;
        }
        return null;
      })}
      {message.status === 'incomplete' ? <p className="muted">(stopped before it finished)</p> : null}
      {message.status === 'error' ? (
        <p className="message-error" role="alert">
          The reply failed{message.error ? `: ${message.error}` : ''}.
        </p>
      ) : null}
    </li>
  );
});
