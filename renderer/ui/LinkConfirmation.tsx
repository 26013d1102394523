// The question before an address someone else handed over (a link in a reply, a view's request to open
// a page) opens in the browser: a dialog like every consent dialog, its full address and real domain
// shown, "Don't open" the safe answer. One question at a time; the others wait their turn.
import { useSyncExternalStore } from 'react';
import type { OfferedAddress } from '../../shared/offeredAddress.ts';
import { AddressWithDomain } from './AddressWithDomain.tsx';
import { ConsentDialog, SafeAnswer } from './ConsentDialog.tsx';
import { UntrustedText } from './UntrustedText.tsx';

interface Question {
  address: OfferedAddress;
  askedBy: string | undefined;
  settle(opened: boolean): void;
}

let questions: readonly Question[] = [];
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Asks the person whether to open `address`; resolves true once it was opened in a new tab. */
export function askToOpen(address: OfferedAddress, askedBy?: string): Promise<boolean> {
  return new Promise((settle) => {
    questions = [...questions, { address, askedBy, settle }];
    changed();
  });
}

/** The open question, as a dialog; mounted once, where the other dialogs are. */
export function LinkConfirmations() {
  const question = useSyncExternalStore(subscribe, () => questions[0]);
  if (!question) return null;
  const answer = (open: boolean) => {
    // Opened from the click itself, so the browser lets the tab open.
    if (open) window.open(question.address.href, '_blank', 'noopener,noreferrer');
    questions = questions.slice(1);
    changed();
    question.settle(open);
  };
  const { address, askedBy } = question;
  return (
    <ConsentDialog
      key={address.href}
      title="Open this address?"
      from={askedBy ? <><strong><UntrustedText text={askedBy} /></strong> asks to open a page in your browser.</> : 'A link in the conversation goes to a page in your browser.'}
      onDismiss={() => answer(false)}
    >
      <AddressWithDomain url={address.href} label="Full address" />
      <p>
        It goes to <strong className="consent-domain-name">{address.registrableDomain}</strong>
        {address.unicodeRegistrableDomain !== address.registrableDomain ? ` (in Unicode: ${address.unicodeRegistrableDomain})` : ''}. Atrium has not opened or fetched it.
      </p>
      <div className="consent-actions">
        <button type="button" className="button" onClick={() => answer(true)}>
          Open in browser
        </button>
        <SafeAnswer onClick={() => answer(false)}>Don’t open</SafeAnswer>
      </div>
    </ConsentDialog>
  );
}
