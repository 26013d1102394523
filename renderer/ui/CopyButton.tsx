import { useEffect, useState } from 'react';

/**
 * Copies `text()` to the clipboard when pressed, and says for a moment whether it could. The text is
 * read at the press, so a caller can take what the page shows then.
 */
export function CopyButton({ label, text }: { label: string; text: () => string }) {
  const [outcome, setOutcome] = useState<'Copied' | 'Could not copy' | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), 2_000);
    return () => clearTimeout(timer);
  }, [outcome]);
  const copy = () => {
    // A page the browser does not deem secure has no clipboard: that is said like a refusal, not thrown.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(text()))
      .then(
        () => setOutcome('Copied'),
        () => setOutcome('Could not copy'),
      );
  };
  return (
    <span className="copy-button">
      <button type="button" className="icon-button" aria-label={label} onClick={copy}>
        Copy
      </button>
      <span className="muted" role="status">
        {outcome}
      </span>
    </span>
  );
}
