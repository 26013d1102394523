import { useState } from 'react';
import type { PendingOf } from '../../../shared/pendingPayloads.ts';
import type { ToolApprovalAnswer } from '../../../shared/pendingPayloads.ts';
import { toolDeclaration } from '../../../shared/toolDeclaration.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ConsentDialog } from '../../ui/ConsentDialog.tsx';
import { shownText } from '../../../shared/visibleText.ts';

/**
 * A tool call waiting for the person: what runs where, with which arguments, and how far the answer
 * reaches. What the tool declares about itself is said once, in proportion: as an alarm only when the
 * host's policy asks for the stronger warning, with why Atrium asks and, for a server that is not
 * trusted, what trusting it would change. Deny is both the focused answer and the coloured one. In a
 * conversation that has read untrusted content the call asks whatever was allowed before, so the dialog
 * says so and offers to allow only this once.
 */
export function ToolApprovalDialog({ record, answer }: { record: PendingOf<'tool_approval'>; answer(outcome: ToolApprovalAnswer): void }) {
  const { tool, arguments: args, annotationsTrusted, elevated, reason, raisedBy, fromView } = record.payload;
  const [wholeServer, setWholeServer] = useState(false);
  const target = wholeServer ? 'server' : 'tool';
  const declared = toolDeclaration(tool.name, tool.annotations);
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
      <label className="consent-check">
        <input type="checkbox" checked={wholeServer} onChange={(event) => setWholeServer(event.target.checked)} />
        Apply {raisedBy ? 'an “always deny”' : 'a “this conversation” or “always”'} answer to every tool of this server
      </label>
      <div className="consent-actions">
        <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'once', target: 'tool' })}>
          Allow once
        </button>
        {raisedBy ? null : (
          <>
            <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'conversation', target })}>
              Allow in this conversation
            </button>
            <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'always', target })}>
              Always allow
            </button>
          </>
        )}
        <button type="button" className="button" onClick={() => answer({ effect: 'deny', scope: 'always', target })}>
          Always deny
        </button>
        <button type="button" className="button button-primary" data-autofocus onClick={() => answer({ effect: 'deny', scope: 'once', target: 'tool' })}>
          Deny
        </button>
      </div>
    </ConsentDialog>
  );
}
