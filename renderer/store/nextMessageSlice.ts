import type { PromptSummary } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

// What the person is putting together for a conversation's next message, beside its words (those are
// `composerText`, kept by the host): the files and the servers' resources attached, a prompt chosen with
// the arguments filled so far. Each belongs to its conversation (by conversationKey), not to the message
// box: it waits while another view or conversation is shown, and never goes with a message sent elsewhere.

/** A file attached to the message being written, as the host takes it. */
export interface AttachedFile {
  name: string;
  mimeType: string;
  /** Base64. */
  data: string;
  /** Its size in bytes, for the limit on all of them together. */
  size: number;
}

/** A resource the person chose to send with their next message. */
export interface Attachment {
  serverId: string;
  uri: string;
  name: string;
}

/** A prompt picked from the "/" list, waiting for its arguments; `values` are those typed so far. */
export interface PromptForm {
  prompt: PromptSummary;
  values: Record<string, string>;
  /** Why the last Run did not start (the server refused the arguments), said in the form. */
  problem?: string;
}

export interface NextMessageSlice {
  attachedFiles: Record<string, AttachedFile[]>;
  setAttachedFiles(conversationKey: string, files: AttachedFile[] | ((current: AttachedFile[]) => AttachedFile[])): void;
  attachments: Record<string, Attachment[]>;
  /** A resource attached once: attached again, it is not counted twice. */
  attach(conversationKey: string, attachment: Attachment): void;
  detach(conversationKey: string, uri: string): void;
  clearAttachments(conversationKey: string): void;
  promptForms: Record<string, PromptForm>;
  /** The prompt waiting for its arguments, or null when it was run or given up. */
  setPromptForm(conversationKey: string, form: PromptForm | null): void;
}

/** The one empty list: a selector that gave a new one each time would make its component render again and again. */
export const NOTHING_YET: never[] = [];

/** `record` with `key` set to `value`, or without it when `value` is empty (null, or an empty list). */
function withEntry<T>(record: Record<string, T>, key: string, value: T | null): Record<string, T> {
  const { [key]: _was, ...others } = record;
  return value === null || (Array.isArray(value) && value.length === 0) ? others : { ...others, [key]: value };
}

export const createNextMessageSlice: SliceCreator<NextMessageSlice> = (set) => ({
  attachedFiles: {},
  setAttachedFiles: (key, files) =>
    set((state) => ({ attachedFiles: withEntry(state.attachedFiles, key, typeof files === 'function' ? files(state.attachedFiles[key] ?? NOTHING_YET) : files) })),
  attachments: {},
  attach: (key, attachment) =>
    set((state) => {
      const attached = state.attachments[key] ?? NOTHING_YET;
      if (attached.some((a) => a.serverId === attachment.serverId && a.uri === attachment.uri)) return {};
      return { attachments: withEntry(state.attachments, key, [...attached, attachment]) };
    }),
  detach: (key, uri) => set((state) => ({ attachments: withEntry(state.attachments, key, (state.attachments[key] ?? NOTHING_YET).filter((a) => a.uri !== uri)) })),
  clearAttachments: (key) => set((state) => ({ attachments: withEntry(state.attachments, key, null) })),
  promptForms: {},
  setPromptForm: (key, form) => set((state) => ({ promptForms: withEntry(state.promptForms, key, form) })),
});

