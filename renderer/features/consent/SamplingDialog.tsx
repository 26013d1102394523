import { useState } from 'react';
import type { PendingOf } from '../../../shared/pendingPayloads.ts';
import type { SamplingRequestAnswer, SamplingRequestPayload, SamplingResultAnswer, SamplingResultPayload } from '../../../shared/pendingPayloads.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ConsentDialog, SafeAnswer, safely } from '../../ui/ConsentDialog.tsx';
import { ProblemAlert } from '../../ui/ProblemAlert.tsx';
import { neutraliseProse } from '../../../shared/serverText.ts';

interface SamplingDialogProps {
  record: PendingOf<'sampling'>;
  answer(outcome: SamplingRequestAnswer | SamplingResultAnswer): Promise<void>;
}

/** A server asks to use the person's model: first the request (editable), then the reply (reviewable). */
export function SamplingDialog({ record, answer }: SamplingDialogProps) {
  const { payload } = record;
  return payload.stage === 'request' ? <SamplingRequest record={record} payload={payload} answer={answer} /> : <SamplingReview record={record} payload={payload} answer={answer} />;
}

function SamplingRequest({ record, payload, answer }: SamplingDialogProps & { payload: SamplingRequestPayload }) {
  // The fields hold the text as the model would read it (hidden characters out, a note of them); what
  // the server wrote, with a mark where each was, shows under a field that differs.
  const [givenSystem] = useState(() => neutraliseProse(payload.systemPrompt ?? ''));
  const [givenMessages] = useState(() => payload.messages.map((m) => ({ role: m.role, text: neutraliseProse(m.text) })));
  const [system, setSystem] = useState(givenSystem);
  const [messages, setMessages] = useState(givenMessages);
  const [model, setModel] = useState(payload.model);
  const [maxTokens, setMaxTokens] = useState(String(payload.maxTokens));
  const [shareContext, setShareContext] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const edited = system !== givenSystem || messages.some((m, i) => m.text !== givenMessages[i]?.text);
  const approve = () => {
    setProblem(null);
    const outcome: SamplingRequestAnswer = {
      action: 'approve',
      ...(edited ? { messages, systemPrompt: system } : {}),
      ...(model !== payload.model ? { model } : {}),
      ...(maxTokens !== String(payload.maxTokens) ? { maxTokens: Number(maxTokens) } : {}),
      ...(shareContext ? { shareContext: true } : {}),
    };
    answer(outcome).catch((error: Error) => setProblem(error.message));
  };
  const models = payload.models.includes(payload.model) ? payload.models : [payload.model, ...payload.models];
  return (
    <ConsentDialog
      title="Use your model for a server?"
      from={<>Server <strong><UntrustedText text={record.serverId} /></strong> asks to run a prompt on your model. You pay for it; you may edit it first.</>}
      onDismiss={() => safely(answer, { action: 'reject' })}
    >
      <label className="field">
        Model
        <select value={model} onChange={(event) => setModel(event.target.value)}>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <span className="field-description">
          Atrium chose {payload.model}: <UntrustedText text={payload.why} />
        </span>
      </label>
      <label className="field">
        System prompt
        <textarea value={system} rows={2} onChange={(event) => setSystem(event.target.value)} />
        <AsWritten written={payload.systemPrompt ?? ''} given={givenSystem} />
      </label>
      {messages.map((message, index) => (
        <label key={index} className="field">
          {message.role === 'user' ? 'User message' : 'Assistant message'} {index + 1}
          {payload.messages[index]?.attachments.length ? <span className="field-description"> with {payload.messages[index]?.attachments.join(', ')}</span> : null}
          <textarea value={message.text} rows={3} onChange={(event) => setMessages((all) => all.map((m, i) => (i === index ? { ...m, text: event.target.value } : m)))} />
          <AsWritten written={payload.messages[index]?.text ?? ''} given={givenMessages[index]?.text ?? ''} />
        </label>
      ))}
      <label className="field">
        Most tokens
        <input type="number" min={1} value={maxTokens} onChange={(event) => setMaxTokens(event.target.value)} />
      </label>
      {payload.includeContext !== 'none' ? (
        <label className="consent-check">
          <input type="checkbox" checked={shareContext} disabled={!payload.contextAvailable} onChange={(event) => setShareContext(event.target.checked)} />
          Also share {payload.includeContext === 'thisServer' ? "this server's tool results from the conversation" : 'the whole conversation'} (the server asked for it)
          {payload.contextAvailable ? null : ' — no conversation is using this server now'}
        </label>
      ) : null}
      <ProblemAlert text={problem} />
      <div className="consent-actions">
        <button type="button" className="button" onClick={approve}>
          Run it
        </button>
        <SafeAnswer onClick={() => safely(answer, { action: 'reject' })}>Reject</SafeAnswer>
      </div>
    </ConsentDialog>
  );
}

function SamplingReview({ record, payload, answer }: SamplingDialogProps & { payload: SamplingResultPayload }) {
  const [text, setText] = useState(payload.text);
  return (
    <ConsentDialog
      title="Send this reply to the server?"
      from={<>Your model answered <strong><UntrustedText text={record.serverId} /></strong>. Read it, edit it if you like, then send or withhold it.</>}
      onDismiss={() => safely(answer, { action: 'reject' })}
    >
      <p className="sampling-model">
        Answered by <strong><UntrustedText text={payload.model} /></strong> from <UntrustedText text={payload.provider} />
        <span className="field-description">
          {' '}
          — <UntrustedText text={payload.why} />
        </span>
      </p>
      <label className="field">
        Reply
        <textarea value={text} rows={8} onChange={(event) => setText(event.target.value)} />
      </label>
      <div className="consent-actions">
        <button type="button" className="button" onClick={() => safely(answer, text === payload.text ? { action: 'send' } : { action: 'send', text })}>
          Send reply
        </button>
        <SafeAnswer onClick={() => safely(answer, { action: 'reject' })}>Withhold</SafeAnswer>
      </div>
    </ConsentDialog>
  );
}

/** What the server wrote, with its hidden characters marked, when the field's text had some taken out. */
function AsWritten({ written, given }: { written: string; given: string }) {
  if (written === given) return null;
  return (
    <span className="field-description">
      As the server wrote it: <UntrustedText text={written} />
    </span>
  );
}
