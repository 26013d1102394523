import { useState } from 'react';
import type { ToolChangeView, ToolSummary } from '../../../shared/domain.ts';
import { definitionChanges } from '../../../shared/toolDefinitionDiff.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ConsentDialog, SafeAnswer } from '../../ui/ConsentDialog.tsx';
import { shownText } from '../../../shared/visibleText.ts';

/**
 * A tool whose server changed it since it was approved, the old definition beside the new one: each field
 * that differs, its lines marked removed or added. Approving names the version shown, so a tool that
 * changed again meanwhile is refused and shown afresh; keeping it withheld is the focused, safe answer.
 */
export function ToolChangeDialog({ tool, change, onClose }: { tool: ToolSummary; change: ToolChangeView; onClose(approved: boolean): void }) {
  const api = useAtriumApi();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { changed: _change, ...now } = tool;
  const changes = definitionChanges(change.previous, now);
  const approve = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await api.approveToolChange({ serverId: tool.serverId, tool: tool.name, fingerprint: change.fingerprint });
      onClose(true);
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };
  return (
    <ConsentDialog
      title={`${shownText(tool.name)} changed`}
      from={
        <>
          Server <strong><UntrustedText text={tool.serverId} /></strong> changed this tool since its version of {new Date(change.pinnedAt).toLocaleString()}. Atrium keeps it from the model, and refuses calls to it, until you approve the new version.
        </>
      }
      tone="danger"
      wide
      onDismiss={() => onClose(false)}
    >
      <p className="muted">
        Read the new text as the model would: a changed description can tell the model to do something you did not ask for. Your earlier permissions for this tool were for the old version, so its next call asks again.
      </p>
      {changes.length === 0 ? <p className="muted">Only details Atrium does not show changed.</p> : null}
      {changes.map((field) => (
        <section key={field.label} className="tool-change-field" aria-label={`${field.label}: before and after`}>
          <h3 className="consent-subtitle">{field.label}</h3>
          <div className="tool-change-columns">
            <DiffColumn title="Before" lines={field.lines.filter((line) => line.kind !== 'added')} />
            <DiffColumn title="After" lines={field.lines.filter((line) => line.kind !== 'removed')} />
          </div>
        </section>
      ))}
      {problem ? (
        <p className="consent-warning" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="consent-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void approve()}>
          Approve the new version
        </button>
        <SafeAnswer onClick={() => onClose(false)}>Keep it withheld</SafeAnswer>
      </div>
    </ConsentDialog>
  );
}

function DiffColumn({ title, lines }: { title: string; lines: { kind: string; text: string }[] }) {
  return (
    <div className="tool-change-column">
      <span className="muted">{title}</span>
      <pre className="code-block tool-change-text" tabIndex={0} aria-label={title}>
        {lines.length === 0 ? <span className="muted">(none)</span> : null}
        {lines.map((line, index) => (
          <span key={index} className={`diff-line diff-${line.kind}`}>
            {line.kind === 'removed' ? '− ' : line.kind === 'added' ? '+ ' : '  '}
            <UntrustedText text={line.text} />
            {'\n'}
          </span>
        ))}
      </pre>
    </div>
  );
}
