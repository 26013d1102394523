import { createContext, useContext } from 'react';
import { UntrustedText } from './UntrustedText.tsx';

/**
 * The conversation a server's request is for, given to its dialog when another one is on screen (the
 * person moved on while the model wrote its call, or this window shows another): with a way to show it.
 */
export const RequestConversationContext = createContext<{ title: string; show(): void } | undefined>(undefined);

/** In a request's dialog: which conversation it is for, when that is not the one on screen. */
export function RequestConversationLabel() {
  const conversation = useContext(RequestConversationContext);
  if (!conversation) return null;
  return (
    <p className="consent-task">
      For the conversation “<UntrustedText text={conversation.title} />”, not the one on screen.{' '}
      <button type="button" className="link-button" onClick={conversation.show}>
        Show it
      </button>
    </p>
  );
}
