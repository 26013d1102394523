import type { AlongsideCall, ToolApprovalAnswer } from '../../../shared/pendingPayloads.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

/**
 * The model's other calls of the same step that ask too, each with its arguments, and the answer for all
 * of them with this one: each listed call then runs (or is refused) once, as shown here. A whole list
 * rather than "the rest of the step": the person approves only calls they have seen.
 */
export function StepCalls({ calls, answer }: { calls: readonly AlongsideCall[]; answer(outcome: ToolApprovalAnswer): void }) {
  const all = calls.length + 1;
  return (
    <section className="consent-step" aria-label="Other calls in this step">
      <h3 className="consent-subtitle">The model asks for {calls.length === 1 ? 'one more call' : `${calls.length} more calls`} in this step</h3>
      <ol className="consent-step-calls">
        {calls.map((call) => (
          <li key={call.callId}>
            <strong>
              <UntrustedText text={`${call.tool.serverId}/${call.tool.name}`} />
            </strong>
            {call.elevated || call.raised ? <span className="chip chip-warn">{call.raised ? 'asks every time here' : 'may delete things beyond this computer'}</span> : null}
            <code className="consent-step-arguments">
              <UntrustedText text={JSON.stringify(call.arguments)} />
            </code>
          </li>
        ))}
      </ol>
      <p className="muted">Answering them together allows (or refuses) each once, with the arguments shown; the model wrote them all before reading any of their results.</p>
      <div className="consent-actions">
        <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'step', target: 'tool' })}>
          Allow these {all} calls
        </button>
        <button type="button" className="button" onClick={() => answer({ effect: 'deny', scope: 'step', target: 'tool' })}>
          Deny these {all} calls
        </button>
      </div>
    </section>
  );
}
