import { useEffect, useRef } from 'react';
import { shortcutLabel } from '../../ui/shortcuts.ts';
import { focusComposerShortcut, newConversationShortcut, searchConversationsShortcut, shortcutsHelpShortcut } from '../../ui/appShortcuts.ts';
import { returnFocus } from '../../ui/focusHome.ts';

// The keys a person can use, by where they work; the app-wide ones come from the definitions the
// handlers use, so the list cannot drift from what the keys do.
const sections: { title: string; keys: { keys: string; does: string }[] }[] = [
  {
    title: 'Anywhere',
    keys: [
      { keys: shortcutLabel(newConversationShortcut), does: 'Start a new conversation' },
      { keys: shortcutLabel(focusComposerShortcut), does: 'Put the cursor in the message box' },
      { keys: shortcutLabel(searchConversationsShortcut), does: 'Search the conversations (Enter opens the first found; Esc empties the search)' },
      { keys: shortcutLabel(shortcutsHelpShortcut), does: 'Show these shortcuts (outside a text field, where it types a question mark)' },
    ],
  },
  {
    title: 'In the message box',
    keys: [
      { keys: 'Enter', does: 'Send the message' },
      { keys: 'Shift+Enter', does: 'Start a new line' },
      { keys: 'Esc', does: 'Stop the reply being written; give up an edit of your last message' },
      { keys: '/', does: "At the start of a message: the servers' prompts and skills" },
    ],
  },
  {
    title: "In a field a server completes (a prompt's arguments, a template's)",
    keys: [
      { keys: '↓ ↑', does: 'Choose among the suggestions' },
      { keys: 'Enter', does: 'Take the suggestion chosen' },
      { keys: 'Esc', does: 'Close the suggestions (again: close the prompt)' },
    ],
  },
  {
    title: 'In a request from a server',
    keys: [{ keys: 'Esc', does: 'Give the safe answer (deny, decline)' }],
  },
];

/** The keyboard shortcuts, in a modal the person closes with Close or Escape; the focus goes back where it was (or to the message box). */
export function ShortcutsHelp({ onClose }: { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement;
    if (element && !element.open) element.showModal();
    return () => {
      element?.close();
      returnFocus(opener);
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="consent shortcuts-help"
      aria-labelledby="shortcuts-help-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="shortcuts-help-title" className="consent-title">
        Keyboard shortcuts
      </h2>
      {sections.map((section) => (
        <table key={section.title} className="shortcuts-table">
          <caption>{section.title}</caption>
          <thead className="visually-hidden">
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">What they do</th>
            </tr>
          </thead>
          <tbody>
            {section.keys.map((entry) => (
              <tr key={`${entry.keys} ${entry.does}`}>
                <td>
                  <kbd>{entry.keys}</kbd>
                </td>
                <td>{entry.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      <div className="consent-actions">
        <button type="button" className="button button-primary" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
