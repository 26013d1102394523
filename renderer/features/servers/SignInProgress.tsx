import { useEffect, useRef } from 'react';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { AddressWithDomain, domainOf } from '../../ui/AddressWithDomain.tsx';

interface SignInProgressProps {
  /** The authorization page, as the host checked it: untrusted text. */
  url: string;
  /** The person just asked for this sign-in here: the keyboard goes on to the button that opens the page. */
  takeFocus: boolean;
  cancelling: boolean;
  onCancel(): void;
}

/**
 * A sign-in waiting for the person: where they sign in, in full and by domain, and the button that opens
 * it. Browsers block a tab opened without a click, so the page opens on the person's click (the desktop
 * app has already sent it to their browser; the click sends it again).
 */
export function SignInProgress({ url, takeFocus, cancelling, onCancel }: SignInProgressProps) {
  const openButton = useRef<HTMLButtonElement>(null);
  const focusOnMount = useRef(takeFocus);
  useEffect(() => {
    if (focusOnMount.current) openButton.current?.focus();
  }, []);
  const hostInfo = useAtriumStore((state) => state.hostInfo);
  const domain = domainOf(url);
  // The host allows only http(s) pages; a window never opens anything else, whatever it is told.
  const openable = /^https?:\/\//i.test(url) && domain !== '';
  return (
    <section className="sign-in-progress" aria-label="Signing in">
      <p>
        Sign in at <strong className="sign-in-domain">{domain || 'an address Atrium cannot read'}</strong>; Atrium connects as soon as that page sends your
        browser back.
      </p>
      <AddressWithDomain url={url} label="Sign-in page address" />
      <p className="muted">
        {hostInfo?.frontEnd === 'electron' ? 'Atrium opened this page in your browser.' : 'Nothing has been opened yet: the page opens in a new tab when you click.'}
      </p>
      <div className="sign-in-actions">
        <button ref={openButton} type="button" className="button button-primary" disabled={!openable} onClick={() => window.open(url, '_blank', 'noopener')}>
          Open sign-in page
        </button>
        <button type="button" className="button" disabled={cancelling} onClick={onCancel}>
          {cancelling ? 'Cancelling…' : 'Cancel sign-in'}
        </button>
      </div>
    </section>
  );
}
