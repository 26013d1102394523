import { splitHidden } from '../../shared/visibleText.ts';

/**
 * Text a server sent. React already escapes markup; this also shows each run of hidden and control
 * characters (bidi overrides, zero-width, ANSI escapes, tag characters) as a visible mark where it was
 * (invoice⟨U+202E⟩fdp.exe), with a warning, so a server cannot hide or reorder what the person reads.
 */
export function UntrustedText({ text, className }: { text: string; className?: string }) {
  const parts = splitHidden(text);
  if (!parts.some((part) => part.hidden)) return <span className={className}>{text}</span>;
  return (
    <span className={className}>
      {parts.map((part, index) =>
        part.hidden ? (
          <mark key={index} className="hidden-char" title={part.title}>
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
      <span className="hidden-warning" role="img" aria-label="Warning: this text contains hidden characters" title="This text contains hidden characters">
        ⚠
      </span>
    </span>
  );
}
