import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ConversationSummary } from '../../../shared/contract.ts';
import { SearchHitText } from '../../ui/SearchHitText.tsx';
import { madeWithPointer } from '../../ui/pointerClick.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { shownText } from '../../../shared/visibleText.ts';

interface ConversationItemProps {
  conversation: ConversationSummary;
  /** The words the list is searched for, marked in the title and the excerpt; '' when not searching. */
  search: string;
  selected: boolean;
  onOpen(): void;
  /** Resolves once the new title is saved (the list reloads). */
  onRename(title: string): Promise<void>;
  onDelete(): Promise<void>;
}

type Mode = 'idle' | 'renaming' | 'confirming-delete';

/**
 * One conversation in the list: open it, rename it in place (Enter saves, Escape cancels, leaving the
 * field saves), or delete it after a confirmation in place whose safe answer, Keep, has the focus. Its
 * title has the row's whole width (whole in its tooltip); Rename and Delete show on the row pointed at,
 * focused or open. A search that found it in what was said shows where, under the title; one whose reply
 * is still coming has a dot before it.
 */
export function ConversationItem({ conversation, search, selected, onOpen, onRename, onDelete }: ConversationItemProps) {
  const [mode, setMode] = useState<Mode>('idle');
  const openButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  const title = conversation.title || 'Untitled';
  // The cursor comes back to the row when a rename ended from the keyboard, and to Delete when a deletion
  // was kept (as a server card's Remove does), so the keyboard keeps its place (a click elsewhere keeps the
  // focus where it went).
  const refocus = useRef<'row' | 'delete' | null>(null);
  const backToIdle = (focusOn: 'row' | 'delete' | null) => {
    refocus.current = focusOn;
    setMode('idle');
  };
  useEffect(() => {
    if (mode !== 'idle' || !refocus.current) return;
    (refocus.current === 'delete' ? deleteButton : openButton).current?.focus();
    refocus.current = null;
  }, [mode]);

  if (mode === 'renaming') {
    return (
      <li className="conversation conversation-selected">
        <RenameField
          title={shownText(conversation.title)}
          label={`New title for ${title}`}
          onDone={(next, byKeyboard) => {
            backToIdle(byKeyboard ? 'row' : null);
            if (next !== null) void onRename(next);
          }}
        />
      </li>
    );
  }
  if (mode === 'confirming-delete') {
    return (
      <li className="conversation conversation-confirm">
        <DeleteConfirmation title={title} onKeep={() => backToIdle('delete')} onDelete={() => void onDelete()} />
      </li>
    );
  }
  return (
    <li className={selected ? 'conversation conversation-selected' : 'conversation'}>
      {conversation.running ? <span className="conversation-running" role="img" aria-label="Replying" title="Replying" /> : null}
      <button
        ref={openButton}
        type="button"
        className="conversation-open"
        data-conversation-id={conversation.id}
        aria-current={selected}
        title={shownText(title)}
        onClick={(event) => {
          onOpen();
          // Clicked to read and write there: the cursor goes to its message box; by keyboard, it stays in the list.
          if (madeWithPointer(event)) requestComposerFocus();
        }}
      >
        <span className="conversation-title">
          <SearchHitText text={title} search={search} />
        </span>
        {conversation.excerpt !== undefined ? (
          <span className="conversation-excerpt">
            <SearchHitText text={conversation.excerpt} search={search} />
          </span>
        ) : null}
      </button>
      <span className="conversation-actions">
        <button type="button" className="icon-button" aria-label={`Rename ${title}`} title="Rename" onClick={() => setMode('renaming')}>
          ✎
        </button>
        <button ref={deleteButton} type="button" className="icon-button" aria-label={`Delete ${title}`} title="Delete" onClick={() => setMode('confirming-delete')}>
          ✕
        </button>
      </span>
    </li>
  );
}

/** The title, editable; `onDone` gets the new title, or null when nothing is to change. */
function RenameField({ title, label, onDone }: { title: string; label: string; onDone(next: string | null, byKeyboard: boolean): void }) {
  const [value, setValue] = useState(title);
  const [blank, setBlank] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  const noteId = useId();
  // Selected at once, so typing replaces the old title.
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const finish = (save: boolean, byKeyboard: boolean) => {
    if (finished.current) return;
    const next = value.trim();
    // Enter on a title of nothing but spaces: not taken, and said, with the field kept open.
    if (save && byKeyboard && next === '') {
      setBlank(true);
      return;
    }
    finished.current = true;
    onDone(save && next !== '' && next !== title ? next : null, byKeyboard);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    finish(event.key === 'Enter', true);
  };
  return (
    <>
      <input
        ref={input}
        className="conversation-rename"
        aria-label={label}
        {...(blank ? { 'aria-describedby': noteId, 'aria-invalid': true } : {})}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setBlank(false);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => finish(true, false)}
      />
      {blank ? (
        <p id={noteId} className="field-problem" role="alert">
          A title needs a word: type one, or press Escape to keep “{title}”.
        </p>
      ) : null}
    </>
  );
}

function DeleteConfirmation({ title, onKeep, onDelete }: { title: string; onKeep(): void; onDelete(): void }) {
  return (
    <div
      role="group"
      aria-label={`Delete ${title}?`}
      className="conversation-delete"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onKeep();
      }}
    >
      <p>
        Delete “{title}”? Its messages and tool calls are removed for good.
      </p>
      <span className="conversation-delete-actions">
        <button type="button" className="button button-small button-danger" onClick={onDelete}>
          Delete
        </button>
        <button type="button" className="button button-small" autoFocus onClick={onKeep}>
          Keep
        </button>
      </span>
    </div>
  );
}
