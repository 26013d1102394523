// What is said of where a server comes from, the same in the install dialogs and in the start dialog that
// follows: a registry entry's publisher and whether anyone checked it; a bundle's author (its own word),
// its signature (never checked) and its hash; and the servers installed from the same one already.
import type { FormEvent, ReactNode, RefObject } from 'react';
import type { InstalledAlready as Installed, Publisher } from '../../shared/installs.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';

export function PublisherLine({ publisher }: { publisher: Publisher }) {
  return (
    <p className={publisher.verified ? 'launch-verified' : 'launch-unverified'}>
      Publisher <strong><UntrustedText text={publisher.namespace} /></strong> — {publisher.verified ? 'verified' : 'not verified'}: <UntrustedText text={publisher.note} />
    </p>
  );
}

/** " by AUTHOR" after a bundle's name and version, when its manifest names one. */
/** The servers installed from this entry or bundle already: installing again is a second server, not an update. */
export function InstalledAlready({ installed }: { installed: readonly Installed[] }) {
  if (installed.length === 0) return null;
  return (
    <p role="note">
      Installed already:{' '}
      {installed.map((server, index) => (
        <span key={server.serverId}>
          {index > 0 ? ', ' : null}
          <UntrustedText text={server.serverId} /> (<UntrustedText text={server.version} />)
        </span>
      ))}
      . Installing it again adds another server, under the name below, with settings of its own.
    </p>
  );
}

export function BundleAuthor({ author }: { author: string | undefined }) {
  return author ? (
    <>
      {' '}
      by <UntrustedText text={author} />
    </>
  ) : null;
}

/** What Atrium can say of a bundle file itself: no signature is checked anywhere today; its SHA-256. */
export function BundleChecks({ signature, sha256 }: { signature: 'unsigned' | 'not-checked'; sha256: string }) {
  return (
    <>
      <p className="launch-unverified">
        {signature === 'unsigned'
          ? 'Unsigned: nothing says who made this file. (No bundle signature is checked anywhere today.)'
          : 'It carries a signature Atrium did not check: no bundle signature is checked anywhere today, so it proves nothing.'}
      </p>
      <p className="muted">
        SHA-256 <span className="code-inline">{sha256}</span>
      </p>
    </>
  );
}

/** An install dialog's form: its problems' form, sent by Enter or its Install button without the browser's own checks. */
export function InstallForm({ formRef, onInstall, children }: { formRef: RefObject<HTMLFormElement | null>; onInstall: () => Promise<void>; children: ReactNode }) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onInstall();
  };
  return (
    <form ref={formRef} className="consent-form" noValidate onSubmit={submit}>
      {children}
    </form>
  );
}
