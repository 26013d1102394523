import { useState } from 'react';
import type { PendingRequestView } from '../../../shared/domain.ts';
import type { ToolApprovalAnswer, ToolApprovalPayload } from '../../../shared/pendingPayloads.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ConsentDialog } from './ConsentDialog.tsx';

/** A tool call waiting for the person: what runs where, with which arguments, and how far the answer reaches. */
export function ToolApprovalDialog({ record, answer }: { record: PendingRequestView; answer(outcome: ToolApprovalAnswer): void }) {
  const { tool, arguments: args, annotationsTrusted, elevated, reason } = record.payload as ToolApprovalPayload;
  const [wholeServer, setWholeServer] = useState(false);
  const target = wholeServer ? 'server' : 'tool';
  const hints = tool.annotations ?? {};
  // As the specification reads them: destructive and idempotent mean something only for a tool that writes.
  const flags = [
    hints.readOnlyHint ? 'read-only' : hints.destructiveHint === false ? 'writes, not destructive' : 'may be destructive',
    !hints.readOnlyHint && hints.idempotentHint ? 'idempotent' : null,
    hints.openWorldHint === false ? 'closed world' : 'open world',
  ].filter(Boolean);
  return (
    <ConsentDialog
      title={`Run ${tool.name}?`}
      from={
        <>
          Server <strong><UntrustedText text={tool.serverId} /></strong> wants to run the tool <strong><UntrustedText text={tool.title ?? tool.name} /></strong>.
        </>
      }
      tone={elevated ? 'danger' : 'normal'}
      onDismiss={() => answer({ effect: 'deny', scope: 'once', target: 'tool' })}
    >
      {elevated ? (
        <p className="consent-warning" role="alert">
          ⚠ This tool may change or delete things, and reach beyond this computer.
        </p>
      ) : null}
      {tool.description ? (
        <p className="consent-description">
          <UntrustedText text={tool.description} />
        </p>
      ) : null}
      <p className="muted">
        <UntrustedText text={reason} />
      </p>
      <p className="consent-annotations">
        Declared: {flags.join(', ')}.{' '}
        {annotationsTrusted ? 'You trust this server, so these are believed.' : 'This server is not trusted: these claims are not believed.'}
      </p>
      <h3 className="consent-subtitle">Arguments</h3>
      <pre className="code-block consent-arguments" tabIndex={0} aria-label="Arguments">
        <UntrustedText text={JSON.stringify(args, null, 2)} />
      </pre>
      <label className="consent-check">
        <input type="checkbox" checked={wholeServer} onChange={(event) => setWholeServer(event.target.checked)} />
        Apply a “this conversation” or “always” answer to every tool of this server
      </label>
      <div className="consent-actions">
        <button type="button" className="button button-primary" onClick={() => answer({ effect: 'allow', scope: 'once', target: 'tool' })}>
          Allow once
        </button>
        <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'conversation', target })}>
          Allow in this conversation
        </button>
        <button type="button" className="button" onClick={() => answer({ effect: 'allow', scope: 'always', target })}>
          Always allow
        </button>
        <button type="button" className="button button-danger" data-autofocus onClick={() => answer({ effect: 'deny', scope: 'once', target: 'tool' })}>
          Deny
        </button>
        <button type="button" className="button" onClick={() => answer({ effect: 'deny', scope: 'always', target })}>
          Always deny
        </button>
      </div>
    </ConsentDialog>
  );
}
