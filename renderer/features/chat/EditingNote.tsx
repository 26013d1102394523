/** Says, over the message box, that it holds an edit of the person's last message, and lets them give it up (or Escape). */
export function EditingNote({ onCancel }: { onCancel(): void }) {
  return (
    <p className="composer-editing" role="status">
      Editing your last message: Send puts this in its place, and the reply to it is replaced (both kept, folded).{' '}
      <button type="button" className="link-button" onClick={onCancel}>
        Cancel the edit
      </button>
    </p>
  );
}
