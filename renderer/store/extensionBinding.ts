// What an extension's window part adds to keeping the store a mirror of the host (bindAtriumStore): it
// listens to its own events, and reads its state again whenever the link to the host (re)opens.

export interface ExtensionBinding {
  /** Reads the extension's state from the host (after a (re)connect: events sent meanwhile are lost). */
  reload(): Promise<void>;
  unbind(): void;
}
