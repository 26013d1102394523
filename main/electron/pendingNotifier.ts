// A server's request for the person (a tool to approve, a form, a web page to open, a sampling request)
// waits in the window; when the window is not focused, a system notification says who asks and for
// what, and clicking it brings the window back. The notification leaves when the request is settled or
// withdrawn. Server-provided names are untrusted: hidden and control characters become visible marks.
import type { PendingRequestView } from '../../shared/pendingPayloads.ts';
import { visibleText } from '../../shared/visibleText.ts';
import type { EventBus } from '../api/eventBus.ts';

export interface NotificationText {
  title: string;
  body: string;
}

export interface NotifierDeps {
  events: EventBus;
  isWindowFocused(): boolean;
  /** Shows a system notification; `onClick` runs when the person clicks it. */
  show(text: NotificationText, onClick: () => void): { close(): void };
  focusWindow(): void;
}

const maxNameLength = 60;

/** One line of untrusted text, safe to show: marks for hidden characters, no line breaks, bounded. */
export function safeName(text: string): string {
  const line = visibleText(text).replace(/[\t\n]+/g, ' ').trim();
  return line.length > maxNameLength ? `${line.slice(0, maxNameLength - 1)}…` : line;
}

export function describePending(record: PendingRequestView): NotificationText {
  const server = safeName(record.serverId);
  switch (record.kind) {
    case 'tool_approval': {
      const { tool } = record.payload;
      const name = safeName(tool.title ?? tool.name);
      return { title: `${server} wants to run a tool`, body: `“${name}” is waiting for your approval in Atrium.` };
    }
    case 'elicitation':
      return record.payload.mode === 'url'
        ? { title: `${server} asks you to open a web page`, body: 'Atrium shows its full address before anything opens.' }
        : { title: `${server} asks you for information`, body: 'A form is waiting for your answer in Atrium.' };
    case 'sampling':
      return record.payload.stage === 'result'
        ? { title: `${server}’s model reply is ready`, body: 'Review it in Atrium before it is sent back to the server.' }
        : { title: `${server} asks to use your model`, body: 'A sampling request is waiting for your approval in Atrium.' };
    case 'skill':
      return record.payload.question === 'use'
        ? { title: `${server}’s skill “${safeName(record.payload.skill.name)}” asks to be used`, body: 'Atrium shows its files before any of it reaches the model.' }
        : { title: `A skill asks to read a file on ${server}`, body: 'Atrium names both servers before anything is read.' };
    default:
      return { title: `${server} is waiting for you`, body: 'A request is waiting for your answer in Atrium.' };
  }
}

/** Notifies of each request opened while the window is not focused; returns a function that stops. */
export function notifyPendingRequests(deps: NotifierDeps): () => void {
  const shown = new Map<string, { close(): void }>();
  const dismiss = (id: string) => {
    shown.get(id)?.close();
    shown.delete(id);
  };
  const offOpened = deps.events.on('pendingOpened', (record) => {
    if (deps.isWindowFocused()) return;
    shown.set(
      record.id,
      deps.show(describePending(record), () => {
        shown.delete(record.id);
        deps.focusWindow();
      }),
    );
  });
  const offClosed = deps.events.on('pendingClosed', ({ id }) => dismiss(id));
  return () => {
    offOpened();
    offClosed();
    for (const id of [...shown.keys()]) dismiss(id);
  };
}
