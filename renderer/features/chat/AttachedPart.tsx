import { UntrustedText } from '../../ui/UntrustedText.tsx';

/**
 * A resource or file attached to the person's message, folded under its name with its length: the model
 * read it whole; the person opens it (a 3 MB file would otherwise fill the conversation).
 */
export function AttachedPart({ label, body }: { label: string; body: string }) {
  return (
    <details className="message-attachment">
      <summary>
        <UntrustedText text={label} /> <span className="muted">· {body.length.toLocaleString('en')} characters</span>
      </summary>
      <p className="message-text">
        <UntrustedText text={body} />
      </p>
    </details>
  );
}
