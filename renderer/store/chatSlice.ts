import type { AtriumEvents, ConversationDetail, ConversationSummary, Draft } from '../../shared/contract.ts';
import type { ChatTurnEvent, ToolCallOutcome, ToolsInUse } from '../../shared/domain.ts';
import type { ModelInUse } from '../../shared/modelInUse.ts';
import type { AtriumState, SliceCreator } from './AtriumState.ts';

/** A tool call as it happens, before (and while) its record is saved. */
export interface LiveToolCall {
  callId: string;
  /** The reply that made it (the step streaming when it began). */
  messageId?: string;
  serverId: string;
  tool: string;
  /** The whole arguments; empty while the model is still writing them (`composing`). */
  arguments: Record<string, unknown>;
  /** While composing (tools with a view only): the arguments as far as the model has written them. */
  partialArguments?: Record<string, unknown>;
  status: 'composing' | 'waiting' | 'awaiting_approval' | 'running' | ToolCallOutcome;
  progress?: { progress: number; total?: number; message?: string };
  summary?: string;
  /** When it began running (after any approval), as this window saw it. */
  startedAt?: number;
  endedAt?: number;
}

/** A turn in flight: the reply streaming in, its tool calls, what the host noted. */
export interface LiveTurn {
  messageId?: string;
  /**
   * Where `text` starts in the reply's whole text: 0 for a step this window saw begin; for a turn joined
   * midway (the window was reloaded while it ran), where the first delta it heard goes, the saved reply
   * holding what came before; undefined until it hears one (the saved reply, as loaded, is all there is).
   */
  textFrom?: number;
  text: string;
  images: { mimeType: string; data: string }[];
  toolCalls: LiveToolCall[];
  notices: string[];
}

/** The model the person picked for a conversation's next messages. */
export type ModelChoice = ModelInUse;

/** How a conversation is named in what this window keeps per conversation: 'new' for the one not yet started. */
export const conversationKey = (conversationId: string | null): string => conversationId ?? 'new';

/**
 * A place in a conversation the person asked to be shown: a tool call's card (from its messages in a
 * server's trace), or the first message holding the words of a search that found the conversation. The
 * chat scrolls there once and does not follow the end away from it (MessageList, useFollowEnd).
 */
export type ConversationPlace = { conversationId: string; callId: string } | { conversationId: string; search: string };

export interface ChatSlice {
  /** Text put into the composer from elsewhere (editing a sent message); `nonce` makes each request new. */
  draft: { text: string; nonce: number } | null;
  setDraft(text: string): void;
  /** The person's last message being edited, by conversation: sending replaces it (and what answered it). */
  editing: Record<string, string>;
  /** Puts the message's words in the box, to be sent in its place. */
  startEditing(conversationId: string, messageId: string, text: string): void;
  stopEditing(conversationId: string): void;
  /**
   * What is written in each conversation's message box (by conversationKey), kept while other views or
   * conversations are shown, and by the host across reloads (the binder sends it: keptDrafts.ts).
   */
  composerText: Record<string, string>;
  setComposerText(conversationKey: string, text: string | ((current: string) => string)): void;
  /**
   * The drafts the host keeps, as listed, with the edits they are; those `writing` here (not confirmed
   * yet) keep what is in their box.
   */
  mirrorDrafts(fromHost: Record<string, Draft>, writing: (conversationKey: string) => boolean): void;
  /** A draft the host announced (typed in another window, or gone with its conversation). */
  mirrorDraft(conversationKey: string, draft: Draft): void;
  /** Someone asked for the composer to take the focus (a shortcut, New conversation, Stop); it takes it once. */
  composerFocusRequested: boolean;
  requestComposerFocus(): void;
  composerFocusTaken(): void;
  /** Someone asked for the conversations' search (its shortcut); the list's search box takes the focus once. */
  searchFocusRequested: boolean;
  requestSearchFocus(): void;
  searchFocusTaken(): void;
  /**
   * What the model gets of the tools in the selected conversation (null: a new one), as the host said
   * (`toolsInUse`): read again when the conversation changes, a turn ends or loads tools, the tools change.
   */
  toolsInUse: { conversationId: string | null; tools: ToolsInUse } | null;
  setToolsInUse(toolsInUse: { conversationId: string | null; tools: ToolsInUse }): void;
  /** Shows the chat on a new conversation, ready to type. */
  startConversation(): void;
  conversations: ConversationSummary[];
  /** The person's picks, by conversationKey; a conversation without one uses its own model or the default (modelInUse). */
  modelChoice: Record<string, ModelChoice>;
  chooseModel(conversationKey: string, choice: ModelChoice): void;
  /**
   * Messages (and Retries) on their way, by conversationKey, each with its send's number, until its turn
   * ends or it could not start. A new conversation's moves to the conversation once the host names it, so
   * the next new conversation can be written and sent while the first one's turn runs.
   */
  sending: Record<string, number>;
  /** Marks a send to `conversationKey` as on its way; the number ends it (doneSending), wherever it moved. */
  startSending(conversationKey: string): number;
  doneSending(sendNumber: number): void;
  /** Why the last message or Retry of a conversation (by conversationKey) could not start; shown under its message box. */
  sendError: Record<string, string>;
  setSendError(conversationKey: string, message: string | null): void;
  /** null: a new conversation, made when its first message is sent. */
  selectedConversationId: string | null;
  detail: ConversationDetail | null;
  live: Record<string, LiveTurn>;
  /** A message was sent without a conversation; the first turn event names the one it made. */
  /** The id this window gave the conversation its send is starting, until that conversation appears. */
  awaitingNewConversation: string | null;
  setConversations(conversations: ConversationSummary[]): void;
  /** A conversation the host saved (made, renamed, written in, a turn begun or ended) or deleted, applied to the list. */
  applyConversationChange(change: AtriumEvents['conversationsChanged']): void;
  selectConversation(id: string | null): void;
  /** A place in a conversation the person asked to see (ConversationPlace); the chat opens there, once. */
  shownPlace: ConversationPlace | null;
  /** Opens a conversation a search found in what was said, at the first message holding the words. */
  openFound(conversationId: string, search: string): void;
  /** Opens a conversation at a tool call's card (from the call's messages in a server's trace). */
  showToolCall(conversationId: string, callId: string): void;
  /** Shows a conversation in the chat, from anywhere (the Tasks panel, a request's dialog). */
  showConversation(id: string): void;
  setDetail(detail: ConversationDetail | null): void;
  setAwaitingNewConversation(conversationId: string | null): void;
  /** The conversation made by the first message of 'new' is shown and takes over the model picked for it. */
  adoptNewConversation(conversationId: string): void;
  applyTurnEvent(conversationId: string, event: ChatTurnEvent): void;
  /** After the link came back: a turn the host no longer runs (its `done` was missed) ends here too. */
  endTurnsNotRunning(): void;
  /** After a (re)load: a turn the host runs that this window has not seen begin is followed from here on. */
  joinRunningTurns(): void;
  /** A window just opened, where the person has gone nowhere yet, shows the conversation being answered. */
  landOnRunningConversation(): void;
}

const emptyTurn = (): LiveTurn => ({ textFrom: 0, text: '', images: [], toolCalls: [], notices: [] });

/** Numbers the sends of this window, so that a send's end clears its own mark and no other. */
let sendsStarted = 0;

export const createChatSlice: SliceCreator<ChatSlice> = (set) => ({
  draft: null,
  setDraft: (text) => set((state) => ({ draft: { text, nonce: (state.draft?.nonce ?? 0) + 1 } })),
  editing: {},
  startEditing: (conversationId, messageId, text) =>
    set((state) => ({ editing: { ...state.editing, [conversationId]: messageId }, draft: { text, nonce: (state.draft?.nonce ?? 0) + 1 } })),
  stopEditing: (conversationId) =>
    set((state) => {
      if (!(conversationId in state.editing)) return {};
      const { [conversationId]: _stopped, ...editing } = state.editing;
      return { editing };
    }),
  composerText: {},
  setComposerText: (key, text) =>
    set((state) => {
      const next = typeof text === 'function' ? text(state.composerText[key] ?? '') : text;
      const { [key]: _was, ...others } = state.composerText;
      return { composerText: next === '' ? others : { ...others, [key]: next } };
    }),
  mirrorDrafts: (fromHost, writing) =>
    set((state) => {
      const listed = Object.entries(fromHost).filter(([key]) => !writing(key));
      const typedHere = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).filter(([key]) => writing(key)));
      const editsListed = listed.flatMap(([key, draft]) => (draft.replaces ? [[key, draft.replaces] as const] : []));
      return {
        composerText: { ...Object.fromEntries(listed.map(([key, draft]) => [key, draft.text])), ...typedHere(state.composerText) },
        editing: { ...Object.fromEntries(editsListed), ...typedHere(state.editing) },
      };
    }),
  mirrorDraft: (key, { text, replaces }) =>
    set((state) => {
      if ((state.composerText[key] ?? '') === text && state.editing[key] === replaces) return {};
      const { [key]: _was, ...others } = state.composerText;
      const { [key]: _wasEditing, ...otherEdits } = state.editing;
      return {
        composerText: text === '' ? others : { ...others, [key]: text },
        editing: text !== '' && replaces ? { ...otherEdits, [key]: replaces } : otherEdits,
      };
    }),
  // The window opens with the cursor in the message box (when it shows one, or once it does): the first
  // key typed is the first word, as in any chat.
  composerFocusRequested: true,
  requestComposerFocus: () => set({ composerFocusRequested: true }),
  composerFocusTaken: () => set({ composerFocusRequested: false }),
  searchFocusRequested: false,
  requestSearchFocus: () => set({ view: 'chat', viewChosen: true, searchFocusRequested: true }),
  searchFocusTaken: () => set({ searchFocusRequested: false }),
  toolsInUse: null,
  setToolsInUse: (toolsInUse) => set({ toolsInUse }),
  startConversation: () => set({ view: 'chat', viewChosen: true, selectedConversationId: null, detail: null, composerFocusRequested: true }),
  conversations: [],
  modelChoice: {},
  chooseModel: (key, choice) => set((state) => ({ modelChoice: { ...state.modelChoice, [key]: choice } })),
  sending: {},
  startSending: (key) => {
    const sendNumber = ++sendsStarted;
    set((state) => ({ sending: { ...state.sending, [key]: sendNumber } }));
    return sendNumber;
  },
  doneSending: (sendNumber) => set((state) => ({ sending: Object.fromEntries(Object.entries(state.sending).filter(([, number]) => number !== sendNumber)) })),
  sendError: {},
  setSendError: (key, message) =>
    set((state) => {
      const { [key]: _was, ...others } = state.sendError;
      return { sendError: message === null ? others : { ...others, [key]: message } };
    }),
  selectedConversationId: null,
  detail: null,
  live: {},
  awaitingNewConversation: null,
  setConversations: (conversations) => set({ conversations }),
  applyConversationChange: (change) =>
    set((state) => {
      if ('removed' in change) {
        const conversations = state.conversations.filter((c) => c.id !== change.removed);
        // A conversation deleted elsewhere is no longer shown here either.
        return state.selectedConversationId === change.removed ? { conversations, selectedConversationId: null, detail: null } : { conversations };
      }
      const others = state.conversations.filter((c) => c.id !== change.conversation.id);
      // Most recently active first, as the host lists them.
      return { conversations: [change.conversation, ...others].sort((a, b) => b.updatedAt - a.updatedAt) };
    }),
  selectConversation: (selectedConversationId) =>
    set((state) => (state.selectedConversationId === selectedConversationId ? { shownPlace: null } : { selectedConversationId, detail: null, shownPlace: null })),
  shownPlace: null,
  openFound: (conversationId, search) => set((state) => showingPlace(state, { conversationId, search })),
  showToolCall: (conversationId, callId) => set((state) => showingPlace(state, { conversationId, callId })),
  showConversation: (selectedConversationId) =>
    set((state) => ({ view: 'chat', viewChosen: true, ...(state.selectedConversationId === selectedConversationId ? {} : { selectedConversationId, detail: null }) })),
  setDetail: (detail) => set({ detail }),
  setAwaitingNewConversation: (awaitingNewConversation) => set({ awaitingNewConversation }),
  adoptNewConversation: (conversationId) =>
    set((state) => {
      // The next new conversation starts from the default again, not from this one's pick.
      const { new: picked, ...modelChoice } = state.modelChoice;
      // Its send goes with it: the next new conversation is free to be sent.
      const { new: sendingNew, ...sending } = state.sending;
      return {
        awaitingNewConversation: null,
        selectedConversationId: conversationId,
        detail: null,
        modelChoice: picked ? { ...modelChoice, [conversationId]: picked } : modelChoice,
        sending: sendingNew === undefined ? sending : { ...sending, [conversationId]: sendingNew },
      };
    }),
  endTurnsNotRunning: () =>
    set((state) => ({ live: Object.fromEntries(Object.entries(state.live).filter(([id]) => state.conversations.some((c) => c.id === id && c.running))) })),
  joinRunningTurns: () =>
    set((state) => {
      const joined = state.conversations.filter((c) => c.running && state.live[c.id] === undefined);
      if (joined.length === 0) return {};
      const { textFrom: _unknown, ...midway } = emptyTurn();
      return { live: { ...state.live, ...Object.fromEntries(joined.map((c) => [c.id, { ...midway }])) } };
    }),
  landOnRunningConversation: () =>
    set((state) => {
      if (state.viewChosen || state.selectedConversationId !== null) return {};
      // The list is most recent first: the conversation the person wrote in last.
      const running = state.conversations.find((c) => c.running);
      return running ? { view: 'chat', selectedConversationId: running.id, detail: null } : {};
    }),
  applyTurnEvent: (conversationId, event) =>
    set((state) => {
      if (event.type === 'done') {
        const { [conversationId]: _finished, ...live } = state.live;
        return { live };
      }
      const turn = { ...(state.live[conversationId] ?? emptyTurn()) };
      // A step this window did not see begin (it joined the turn midway): its start is in the saved reply.
      const joinStep = (messageId: string) => {
        if (turn.messageId === messageId) return;
        turn.messageId = messageId;
        delete turn.textFrom;
        turn.text = '';
        turn.images = [];
      };
      const updateCall = (callId: string, patch: Partial<LiveToolCall>) => {
        turn.toolCalls = turn.toolCalls.map((call) => (call.callId === callId ? { ...call, ...patch } : call));
      };
      switch (event.type) {
        case 'assistant_started':
          // A new model step: the reply so far is saved and reloaded; this step streams afresh.
          turn.messageId = event.messageId;
          turn.textFrom = 0;
          turn.text = '';
          turn.images = [];
          break;
        case 'text':
          joinStep(event.messageId);
          turn.textFrom ??= event.at;
          turn.text += event.delta;
          break;
        case 'image':
          joinStep(event.messageId);
          turn.images = [...turn.images, { mimeType: event.mimeType, data: event.data }];
          break;
        case 'tool_input':
          if (turn.toolCalls.some((call) => call.callId === event.callId)) updateCall(event.callId, { partialArguments: event.arguments });
          else turn.toolCalls = [...turn.toolCalls, { callId: event.callId, messageId: event.messageId, serverId: event.serverId, tool: event.tool, arguments: {}, partialArguments: event.arguments, status: 'composing' }];
          break;
        case 'tool_call': {
          const known = turn.toolCalls.some((call) => call.callId === event.callId);
          const started = event.status === 'running' ? { startedAt: Date.now() } : {};
          if (known) updateCall(event.callId, { status: event.status, arguments: event.arguments, ...started });
          else turn.toolCalls = [...turn.toolCalls, { callId: event.callId, ...(turn.messageId ? { messageId: turn.messageId } : {}), serverId: event.serverId, tool: event.tool, arguments: event.arguments, status: event.status, ...started }];
          break;
        }
        case 'tool_progress': {
          const progress = { progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message !== undefined ? { message: event.message } : {}) };
          if (turn.toolCalls.some((call) => call.callId === event.callId)) updateCall(event.callId, { progress });
          // A call this window did not see begin (it joined the turn midway): its server, tool and arguments are in its saved record.
          else turn.toolCalls = [...turn.toolCalls, { callId: event.callId, serverId: '', tool: '', arguments: {}, status: 'running', progress }];
          break;
        }
        case 'tool_result':
          updateCall(event.callId, { status: event.status, summary: event.summary, endedAt: Date.now() });
          break;
        case 'notice':
          // A withheld tool's note is saved with the conversation and shown from there, where it happened.
          if (!event.withheld) turn.notices = [...turn.notices, event.message];
          break;
      }
      return { live: { ...state.live, [conversationId]: turn } };
    }),
});

/** The chat, showing `place` in its conversation (opened, unless it is the one open). */
function showingPlace(state: ChatSlice, place: ConversationPlace): Partial<AtriumState> {
  return {
    view: 'chat',
    viewChosen: true,
    shownPlace: place,
    ...(state.selectedConversationId === place.conversationId ? {} : { selectedConversationId: place.conversationId, detail: null }),
  };
}
