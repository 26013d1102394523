import { useState } from 'react';
import type { PendingOf } from '../../../shared/pendingPayloads.ts';
import type { ToolApprovalAnswer } from '../../../shared/pendingPayloads.ts';
import type { LastingTarget } from '../../../shared/approvalReach.ts';
import { conversationAnswerOutlastsCall, coveredTools, lastingAllowReach, lastingTargets, untrustedContentNote } from '../../../shared/approvalReach.ts';
import { toolDeclaration } from '../../../shared/toolDeclaration.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ConsentDialog, SafeAnswer } from '../../ui/ConsentDialog.tsx';
import { RadioChoices } from '../../ui/RadioChoices.tsx';
import { StepCalls } from './StepCalls.tsx';
import { shownText } from '../../../shared/visibleText.ts';

/**
 * A tool call waiting for the person: what runs where, with which arguments, and how far the answer
 * reaches. What the tool declares about itself is said once, in proportion: as an alarm only when the
 * host's policy asks for the stronger warning, with why Atrium asks and, for a server that is not
 * trusted, what trusting it would change. Deny is both the focused answer and the coloured one. Before a
 * lasting answer is chosen, the dialog says what it covers and whether it holds once the conversation
 * holds untrusted content; where that content is why it asks, only this once can be allowed. Other calls
 * of the same step that ask too are listed, to be answered together.
 */
export function ToolApprovalDialog({ record, answer }: { record: PendingOf<'tool_approval'>; answer(outcome: ToolApprovalAnswer): void }) {
  const { payload } = record;
  const { tool, arguments: args, annotationsTrusted, elevated, reason, raisedBy, untrustedContent, fromView, alongside } = payload;
  const [target, setTarget] = useState<LastingTarget>('tool');
  const declared = toolDeclaration(tool.name, tool.annotations);
  // Under a raised bar only a deny lasts, and denying a server's read-only tools alone would be an odd way to say no.
  const targets: LastingTarget[] = raisedBy ? ['tool', 'server'] : lastingTargets(payload);
  const serverWide = (choice: Exclude<LastingTarget, 'tool'>) => coveredTools(payload, choice).length;
  const targetLabels: Record<LastingTarget, string> = {
    tool: 'This tool',
    'read-only-tools': `Its read-only tools (${serverWide('read-only-tools')})`,
    server: `Every tool of this server (${serverWide('server')})`,
  };
  return (
    <ConsentDialog
      title={`Run ${shownText(tool.name)}?`}
      from={
        fromView ? (
          <>
            The view of <strong><UntrustedText text={`${fromView.serverId}/${fromView.tool}`} /></strong> (a page its server shows in the chat, not the model) asks to run the tool{' '}
            <strong><UntrustedText text={tool.title ?? tool.name} /></strong>.
          </>
        ) : (
          <>
            Server <strong><UntrustedText text={tool.serverId} /></strong> wants to run the tool <strong><UntrustedText text={tool.title ?? tool.name} /></strong>.
          </>
        )
      }
      tone={elevated || raisedBy ? 'danger' : 'normal'}
      wide
      onDismiss={() => answer({ effect: 'deny', scope: 'once', target: 'tool' })}
    >
      {tool.description ? (
        <p className="consent-description">
          <UntrustedText text={tool.description} />
        </p>
      ) : null}
      <div className="consent-declaration">
        {elevated ? (
          <p className="consent-warning" role="alert">
            ⚠ <UntrustedText text={declared} />
          </p>
        ) : (
          <p>
            <UntrustedText text={declared} />
          </p>
        )}
        {raisedBy ? (
          <p className="consent-warning" role="alert" data-testid="raised-bar">
            ⚠ Why Atrium asks again: <UntrustedText text={reason} />. Allow it only if this call is what you asked for: in this conversation it asks every time.
          </p>
        ) : (
          <p className="muted">
            Why Atrium asks: <UntrustedText text={reason} />.
          </p>
        )}
        {untrustedContent && !raisedBy ? (
          <p className="muted" data-testid="untrusted-content">
            <UntrustedText text={untrustedContentNote(untrustedContent, tool.name)} />
          </p>
        ) : null}
        {annotationsTrusted ? (
          <p className="muted">You trust this server, so Atrium believes what its tools declare.</p>
        ) : (
          <p className="muted">
            Trusting <UntrustedText text={tool.serverId} /> (Servers, Edit, “Trust this server”) means Atrium believes what its tools declare, and runs those that only read without asking. Trust only a server whose maker you trust.
          </p>
        )}
      </div>
      <h3 className="consent-subtitle">Arguments</h3>
      <pre className="code-block consent-arguments" tabIndex={0} aria-label="Arguments">
        <UntrustedText text={JSON.stringify(args, null, 2)} />
      </pre>
      {alongside && alongside.length > 0 ? <StepCalls calls={alongside} answer={answer} /> : null}
      <RadioChoices<LastingTarget>
        legend={raisedBy ? 'An “always deny” covers' : 'A lasting answer covers'}
        name={`grant-target-${record.id}`}
        choices={targets.map((value): { value: LastingTarget; label: string } => ({ value, label: targetLabels[value] }))}
        value={target}
        onChange={setTarget}
      >
        <p className="muted consent-reach" data-testid="lasting-reach">
          {raisedBy ? (
            'Only this once can be allowed here. “Always deny” refuses it from now on, in every conversation.'
          ) : (
            <UntrustedText text={lastingAllowReach(payload, target)} />
          )}
        </p>
      </RadioChoices>
      <div className="consent-actions">
        <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'once', target: 'tool' })}>
          Allow once
        </button>
        {raisedBy ? null : (
          <>
            {conversationAnswerOutlastsCall(payload, target) ? (
              <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'conversation', target })}>
                Allow in this conversation
              </button>
            ) : null}
            <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'always', target })}>
              Always allow
            </button>
          </>
        )}
        <button type="button" className="button" onClick={() => answer({ effect: 'deny', scope: 'always', target })}>
          Always deny
        </button>
        <SafeAnswer onClick={() => answer({ effect: 'deny', scope: 'once', target: 'tool' })}>Deny</SafeAnswer>
      </div>
    </ConsentDialog>
  );
}
