import type { Shortcut } from './shortcuts.ts';

// Ctrl+N and Ctrl+T belong to the browser in the browser mode (a page cannot keep them); these do not.
export const newConversationShortcut = { kind: 'command', key: 'o', shift: true } as const satisfies Shortcut;
export const focusComposerShortcut = { kind: 'command', key: 'l' } as const satisfies Shortcut;
export const shortcutsHelpShortcut = { kind: 'plain', key: '?' } as const satisfies Shortcut;
export const searchConversationsShortcut = { kind: 'command', key: 'k' } as const satisfies Shortcut;
