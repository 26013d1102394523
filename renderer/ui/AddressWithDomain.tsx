import { describeAddress } from '../../shared/offeredAddress.ts';
import type { OfferedAddress } from '../../shared/offeredAddress.ts';
import { UntrustedText } from './UntrustedText.tsx';

interface AddressWithDomainProps {
  /** The whole address, exactly as it will be opened: untrusted text. */
  url: string;
  /** The address's accessible name, e.g. "Full address". */
  label: string;
}

/**
 * An address a server or an authorization server handed over, shown whole, with its registrable
 * domain (the Public Suffix List's answer: `evil.example` in `accounts.google.com.evil.example`)
 * marked. An internationalised name is shown as the network sees it (punycode) with its Unicode form
 * beside it and a warning; a name mixing alphabets is flagged.
 */
export function AddressWithDomain({ url, label }: AddressWithDomainProps) {
  const address = addressOf(url);
  const hostAt = address ? url.indexOf(address.host, url.indexOf('//') + 2) : -1;
  const at = address && hostAt >= 0 ? hostAt + address.host.length - address.registrableDomain.length : -1;
  return (
    <>
      <p className="address" role="group" aria-label={label}>
        {address && at >= hostAt && hostAt >= 0 ? (
          <>
            <UntrustedText text={url.slice(0, at)} />
            <mark className="address-domain">{address.registrableDomain}</mark>
            <UntrustedText text={url.slice(at + address.registrableDomain.length)} />
          </>
        ) : (
          <UntrustedText text={url} />
        )}
      </p>
      {address && address.unicodeHost !== address.host ? (
        <p className="address-unicode">
          In Unicode, the name reads <UntrustedText className="address-unicode-name" text={address.unicodeHost} />
        </p>
      ) : null}
      {address?.warnings.map((warning) => (
        <p key={warning} className="address-warning" role="note">
          <span aria-hidden="true">⚠ </span>
          {warning}
        </p>
      ))}
    </>
  );
}

/** What the person must know about `url`, or undefined when it is no URL. */
export function addressOf(url: string): OfferedAddress | undefined {
  try {
    return describeAddress(new URL(url));
  } catch {
    return undefined;
  }
}

/** The registrable domain `url` goes to (punycode for an internationalised one), or '' when it is no URL. */
export function domainOf(url: string): string {
  return addressOf(url)?.registrableDomain ?? '';
}
