import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { ProblemAlert } from '../../ui/ProblemAlert.tsx';
import { saveAsFile } from '../../ui/saveAsFile.ts';

const FORMATS = [
  { format: 'markdown', label: 'As Markdown', type: 'text/markdown', extension: 'md' },
  { format: 'json', label: 'As JSON', type: 'application/json', extension: 'json' },
] as const;

/**
 * Saves the conversation as a file, as `atrium history export` does: Markdown to read or share, JSON
 * with every message, tool call and result. Hidden characters from servers show as their marks.
 */
export function ConversationExport({ conversationId, title }: { conversationId: string; title: string }) {
  const api = useAtriumApi();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  // Closed (saved, or Escape), the keyboard goes back to Export: the button it was on is gone.
  const close = useCallback(() => {
    setOpen(false);
    toggle.current?.focus();
  }, []);
  useEffect(() => {
    if (!open) return;
    // Escape closes it, as it closes the window's other panels.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, close]);
  const save = ({ format, type, extension }: (typeof FORMATS)[number]) => {
    setError(null);
    api.exportConversation({ conversationId, format }).then(
      (text) => {
        saveAsFile(text, type, `${exportName(title)}.${extension}`);
        close();
      },
      (failure: unknown) => setError(errorMessage(failure)),
    );
  };
  return (
    <div className="conversation-export">
      <button ref={toggle} type="button" className="button button-small" aria-expanded={open} onClick={() => setOpen(!open)}>
        Export
      </button>
      {open ? (
        <div className="conversation-export-menu" role="group" aria-label="Export the conversation">
          {FORMATS.map((choice) => (
            <button key={choice.format} type="button" className="button button-small" onClick={() => save(choice)}>
              {choice.label}
            </button>
          ))}
          <ProblemAlert text={error} />
        </div>
      ) : null}
    </div>
  );
}

/** A file name from the title: its words joined by hyphens, nothing a file system could take otherwise. */
function exportName(title: string): string {
  return (
    title
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'conversation'
  );
}
