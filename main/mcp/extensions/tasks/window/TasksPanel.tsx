import { useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TaskView } from '../contract/tasksContract.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { focusHomeElement, returnFocus } from '../../../../../renderer/ui/focusHome.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import { TaskStatus } from './TaskStatus.tsx';

/** The top bar's way to the Tasks panel, with how many tasks run now. */
export function TasksButton() {
  const running = useAtriumStore((state) => Object.values(state.tasks).filter((task) => task.endedAt === undefined).length);
  const open = useAtriumStore((state) => state.tasksPanelOpen);
  const setOpen = useAtriumStore((state) => state.setTasksPanelOpen);
  return (
    <button type="button" className="view-tab" aria-expanded={open} aria-controls="tasks-panel" onClick={() => setOpen(!open)}>
      Tasks{running > 0 ? ` · ${running} running` : ''}
    </button>
  );
}

/**
 * Every task the host follows, across conversations: those running first, then those that ended (the
 * newest first), each with its card's status and Cancel, and a way to its conversation.
 */
export function TasksPanel() {
  const open = useAtriumStore((state) => state.tasksPanelOpen);
  const setOpen = useAtriumStore((state) => state.setTasksPanelOpen);
  const tasks = useAtriumStore(useShallow((state) => Object.values(state.tasks)));
  const titles = useAtriumStore(useShallow((state) => Object.fromEntries(state.conversations.map((c) => [c.id, c.title]))));
  const showConversation = useAtriumStore((state) => state.showConversation);
  const heading = useRef<HTMLHeadingElement>(null);
  const toConversation = useRef(false);
  const leftFor = useRef(false);
  const panel = useRef<HTMLElement>(null);
  // Opened, the keyboard goes to it; closed by Escape or ×, back where it was; closed by choosing a
  // conversation, to that conversation's message box, once it is shown; closed by the keyboard leaving it
  // for another control, left there.
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement;
    heading.current?.focus();
    // The panel floats over the window's right side: once the keyboard lands on a control outside it (Tab
    // past its end, which wraps round the page, or a dialog that opened), it closes rather than hide that
    // control under it. Its own toggle is left to close it.
    const onFocusIn = (event: FocusEvent) => {
      const next = event.target;
      if (!(next instanceof HTMLElement) || panel.current?.contains(next) || next.getAttribute('aria-controls') === 'tasks-panel') return;
      leftFor.current = true;
      setOpen(false);
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      if (leftFor.current) {
        leftFor.current = false;
        return;
      }
      if (!toConversation.current) return returnFocus(opener);
      toConversation.current = false;
      requestAnimationFrame(() => focusHomeElement()?.focus());
    };
  }, [open, setOpen]);
  if (!open) return null;
  const running = tasks.filter((task) => task.endedAt === undefined).sort((a, b) => b.startedAt - a.startedAt);
  const ended = tasks.filter((task) => task.endedAt !== undefined).sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0));
  const entry = (task: TaskView) => (
    <li key={task.key} className="task-entry">
      <div className="task-entry-head">
        <span className="tool-call-name">
          <UntrustedText text={task.serverId} /> / <UntrustedText text={task.tool} />
        </span>
        {task.conversationId ? (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              if (task.conversationId) showConversation(task.conversationId);
              toConversation.current = true;
              setOpen(false);
            }}
          >
            {titles[task.conversationId] ? <UntrustedText text={titles[task.conversationId] ?? ''} /> : 'Open its conversation'}
          </button>
        ) : (
          <span className="muted">your own call</span>
        )}
      </div>
      <TaskStatus task={task} />
    </li>
  );
  return (
    <aside
      id="tasks-panel"
      className="tasks-panel"
      aria-labelledby="tasks-panel-title"
      ref={panel}
      onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
    >
      <header className="tasks-panel-head">
        <h2 id="tasks-panel-title" ref={heading} tabIndex={-1}>
          Tasks
        </h2>
        <button type="button" className="icon-button" aria-label="Close the Tasks panel" onClick={() => setOpen(false)}>
          ×
        </button>
      </header>
      <p className="muted">Long work a server runs on while you keep chatting. A result that comes in after its turn is shown in its conversation, and the model reads it at its next request.</p>
      <h3>Running</h3>
      {running.length === 0 ? <p className="muted">No task is running.</p> : <ul className="task-list">{running.map(entry)}</ul>}
      <h3>Finished</h3>
      {ended.length === 0 ? <p className="muted">No task has finished yet.</p> : <ul className="task-list">{ended.map(entry)}</ul>}
    </aside>
  );
}
