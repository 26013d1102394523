import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { PromptSummary } from '../../../shared/domain.ts';
import type { ModelInUse } from '../../../shared/modelInUse.ts';
import { AtriumRequestError, errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { conversationKey } from '../../store/chatSlice.ts';
import { NOTHING_YET } from '../../store/nextMessageSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { ariaShortcut } from '../../ui/shortcuts.ts';
import { focusComposerShortcut } from '../../ui/appShortcuts.ts';
import { useFocusHome } from '../../ui/focusHome.ts';
import { PromptArguments } from './PromptArguments.tsx';
import { PromptPicker } from './PromptPicker.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { shownText } from '../../../shared/visibleText.ts';
import type { SlashOption } from './slashCommands.ts';
import { useAttachedFiles } from './useAttachedFiles.ts';
import { EditingNote } from './EditingNote.tsx';

/**
 * Where the person writes. Enter sends, Shift+Enter starts a new line; while a turn runs, Stop (or
 * Escape) ends it. A message that starts with "/" opens the servers' prompts and skills: arrows choose,
 * Enter picks, Escape closes; a picked prompt asks for its arguments and then runs as the person's
 * message; a picked skill is used (asked once, verified) and sent as the person's message.
 */
export function Composer({
  conversationId,
  busy,
  model,
  dropZone,
}: {
  conversationId: string | null;
  busy: boolean;
  model: ModelInUse | null;
  /** Where files dropped are attached to the message being written: the whole conversation, not the box alone. */
  dropZone: HTMLElement | null;
}) {
  const api = useAtriumApi();
  const setAwaitingNew = useAtriumStore((state) => state.setAwaitingNewConversation);
  const startSending = useAtriumStore((state) => state.startSending);
  const doneSending = useAtriumStore((state) => state.doneSending);
  const draft = useAtriumStore((state) => state.draft);
  const focusRequested = useAtriumStore((state) => state.composerFocusRequested);
  const focusTaken = useAtriumStore((state) => state.composerFocusTaken);
  const input = useRef<HTMLTextAreaElement>(null);
  // A dialog that leaves nothing to go back to (it came by itself, or its control is gone) hands the keyboard here.
  useFocusHome(input);
  const pickerId = useId();
  // The words belong to the conversation, not to this box: they wait while another view or conversation is shown.
  const key = conversationKey(conversationId);
  const text = useAtriumStore((state) => state.composerText[key] ?? '');
  const setComposerText = useAtriumStore((state) => state.setComposerText);
  const setText = (value: string | ((current: string) => string)) => setComposerText(key, value);
  // The error belongs to the conversation too: Retry (in the message list) reports here, and it stays with its conversation.
  const error = useAtriumStore((state) => state.sendError[key] ?? null);
  const setSendError = useAtriumStore((state) => state.setSendError);
  const setError = (message: string | null) => setSendError(key, message);
  // What goes with the words is the conversation's too: resources and files attached, a prompt half filled.
  const attachments = useAtriumStore((state) => state.attachments[key] ?? NOTHING_YET);
  const detach = useAtriumStore((state) => state.detach);
  const clearAttachments = useAtriumStore((state) => state.clearAttachments);
  const attach = useAtriumStore((state) => state.attach);
  const promptForm = useAtriumStore((state) => state.promptForms[key] ?? null);
  const setPromptForm = useAtriumStore((state) => state.setPromptForm);
  const prompt = promptForm?.prompt ?? null;
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  // Run, cancelled or escaped, the form gives the keyboard back to the message box it replaced.
  const closePromptForm = () => {
    setPromptForm(key, null);
    requestComposerFocus();
  };
  const [options, setOptions] = useState<SlashOption[]>([]);
  const [active, setActive] = useState(0);
  const { files, setFiles, addFiles, dropping } = useAttachedFiles(key, dropZone, setError);
  // Whether this conversation's turn runs is the store's (sent, then the host's events), not this box's.
  const running = busy;
  // An edit of the person's last message: sent in its place (MessageActions starts it).
  const editing = useAtriumStore((state) => (conversationId ? state.editing[conversationId] : undefined));
  const stopEditing = useAtriumStore((state) => state.stopEditing);
  const cancelEdit = () => {
    if (conversationId) stopEditing(conversationId);
    setText('');
    input.current?.focus();
  };
  // "Edit" on a sent message puts its words here, ready to change and send again.
  useEffect(() => {
    if (!draft) return;
    setText(draft.text);
    input.current?.focus();
  }, [draft]);
  useEffect(() => {
    if (!focusRequested || !input.current) return;
    input.current.focus();
    focusTaken();
  }, [focusRequested, focusTaken, prompt]);
  const slash = prompt === null && /^\/\S*$/.test(text);
  const onOptions = useCallback((next: SlashOption[]) => {
    setOptions(next);
    setActive(0);
  }, []);

  /**
   * Runs one turn; the words typed come back if it could not start, so nothing is lost. A new
   * conversation gets its id here, so this window knows it among any others starting.
   */
  const submit = async (start: (starting: { newConversationId?: string }) => Promise<unknown>, restore: string) => {
    setError(null);
    const sendNumber = startSending(key);
    const newConversationId = conversationId ? undefined : crypto.randomUUID();
    if (newConversationId) setAwaitingNew(newConversationId);
    try {
      await start(newConversationId ? { newConversationId } : {});
    } catch (failure) {
      setError(errorMessage(failure));
      setText((current) => (current === '' ? restore : current));
    } finally {
      doneSending(sendNumber);
      // A new conversation that never appeared (the send failed first) is waited for no more. One that
      // appeared was adopted, and a later new conversation waits for its own id: that wait is left alone.
      if (newConversationId !== undefined && useAtriumStore.getState().awaitingNewConversation === newConversationId) setAwaitingNew(null);
    }
  };

  const send = () => {
    const message = text.trim();
    if (!message || running) return;
    setText('');
    const sent = attachments;
    const sentFiles = files;
    // Sent once: if it cannot start (another window wrote meanwhile), its words come back with why.
    const replaces = editing;
    if (replaces && conversationId) stopEditing(conversationId);
    const resources = sent.map(({ serverId, uri }) => ({ serverId, uri }));
    clearAttachments(key);
    setFiles([]);
    void submit(async (starting) => {
      try {
        await api.sendMessage({
          ...starting,
          text: message,
          // Exactly what the model picker shows.
          ...(model ?? {}),
          ...(resources.length > 0 ? { resources } : {}),
          ...(sentFiles.length > 0 ? { files: sentFiles.map(({ name, mimeType, data }) => ({ name, mimeType, data })) } : {}),
          ...(conversationId ? { conversationId } : {}),
          ...(replaces ? { replaces } : {}),
        });
      } catch (failure) {
        // Nothing is lost: what was attached is attached again, beside anything attached meanwhile.
        for (const resource of sent) attach(key, resource);
        setFiles((current) => [...sentFiles, ...current]);
        throw failure;
      }
    }, message);
  };

  const runPrompt = (chosen: PromptSummary, args: Record<string, string>) => {
    closePromptForm();
    setText('');
    void submit(async (starting) => {
      try {
        await api.runPrompt({ ...starting, serverId: chosen.serverId, name: chosen.name, arguments: args, ...(model ?? {}), ...(conversationId ? { conversationId } : {}) });
      } catch (failure) {
        // The form comes back as the person left it, saying why: one value is corrected, not all typed again.
        setPromptForm(key, { prompt: chosen, values: args, problem: errorMessage(failure) });
      }
    }, '');
  };

  const stop = () => {
    if (conversationId) api.cancelTurn({ conversationId }).catch((failure: unknown) => setError(errorMessage(failure)));
  };

  const runSkill = ({ serverId, uri, name }: { serverId: string; uri: string; name: string }) => {
    setText('');
    void submit(async (starting) => {
      try {
        await api.runSkill({ ...starting, serverId, uri, ...(model ?? {}), ...(conversationId ? { conversationId } : {}) });
      } catch (failure) {
        // The person said no to the skill: that is said, and the box stays empty rather than offering it again.
        if (!(failure instanceof AtriumRequestError && failure.code === 'cancelled')) throw failure;
        setError(errorMessage(failure));
      }
    }, `/${name}`);
  };

  const pick = (chosen: SlashOption) => {
    if (chosen.kind === 'skill') runSkill(chosen.skill);
    else if (chosen.prompt.arguments.length === 0) runPrompt(chosen.prompt, {});
    else setPromptForm(key, { prompt: chosen.prompt, values: {} });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash && options.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (event.key === 'Enter') {
        event.preventDefault();
        const chosen = options[active];
        if (chosen) pick(chosen);
        return;
      }
    }
    if (slash && event.key === 'Escape') {
      event.preventDefault();
      setText('');
      return;
    }
    if (event.key === 'Escape' && running && conversationId) {
      event.preventDefault();
      stop();
      return;
    }
    if (event.key === 'Escape' && editing) {
      event.preventDefault();
      cancelEdit();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  if (promptForm) {
    return (
      <div className="composer">
        <PromptArguments
          prompt={promptForm.prompt}
          values={promptForm.values}
          running={running}
          problem={promptForm.problem}
          onChange={(values) => setPromptForm(key, { prompt: promptForm.prompt, values })}
          onRun={(args) => runPrompt(promptForm.prompt, args)}
          onClose={closePromptForm}
        />
      </div>
    );
  }

  return (
    <form
      className={dropping ? 'composer composer-dropping' : 'composer'}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {dropping ? (
        <p className="composer-drop-hint" aria-hidden="true">
          Drop the files to attach them
        </p>
      ) : null}
      {slash ? <PromptPicker id={pickerId} query={text.slice(1)} active={active} onOptions={onOptions} onPick={pick} /> : null}
      {editing ? <EditingNote onCancel={cancelEdit} /> : null}
      {error ? (
        <p className="composer-error" role="alert">
          {error}
        </p>
      ) : null}
      {files.length > 0 ? (
        <ul className="attachments" aria-label="Attached files">
          {files.map((file) => (
            <li key={file.name} className="chip">
              {file.name}
              <button type="button" className="icon-button" aria-label={`Remove ${file.name}`} onClick={() => setFiles((all) => all.filter((f) => f.name !== file.name))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {attachments.length > 0 ? (
        <ul className="attachments" aria-label="Attached resources">
          {attachments.map((attachment) => (
            <li key={`${attachment.serverId} ${attachment.uri}`} className="chip">
              <UntrustedText text={attachment.name} /> <span className="muted">· {attachment.serverId}</span>
              <button type="button" className="icon-button" aria-label={`Remove ${shownText(attachment.name)}`} onClick={() => detach(key, attachment.uri)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <textarea
        ref={input}
        className="composer-input"
        aria-label="Message"
        placeholder="Message Atrium (Enter to send, Shift+Enter for a new line, / for servers' prompts and skills)"
        value={text}
        rows={3}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        // An image or a file pasted (a screenshot, a file copied) is attached; pasted text is typed as ever.
        onPaste={(event) => {
          const pasted = [...event.clipboardData.files];
          if (pasted.length === 0) return;
          if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
          addFiles(pasted);
        }}
        aria-keyshortcuts={ariaShortcut(focusComposerShortcut)}
        // A textbox may not say "expanded"; it says it completes from a list and which option is highlighted.
        aria-autocomplete="list"
        aria-controls={slash ? pickerId : undefined}
        aria-activedescendant={slash && options.length > 0 ? `${pickerId}-${active}` : undefined}
      />
      <div className="composer-actions">
        <label className="button attach-button">
          Attach files
          <input
            type="file"
            multiple
            className="visually-hidden"
            aria-label="Attach files"
            onChange={(event) => {
              const chosen = [...(event.target.files ?? [])];
              event.target.value = '';
              addFiles(chosen);
            }}
          />
        </label>
        {running && conversationId ? (
          <button
            type="button"
            className="button"
            title="Stop the reply (Esc in the message box)"
            onClick={() => {
              stop();
              // The button goes away with the turn; the cursor waits where the next message is written.
              input.current?.focus();
            }}
          >
            Stop
          </button>
        ) : null}
        <button type="submit" className="button button-primary" disabled={running || text.trim() === '' || slash}>
          Send
        </button>
      </div>
    </form>
  );
}
