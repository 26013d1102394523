import { UntrustedText } from './UntrustedText.tsx';

interface AddressWithDomainProps {
  /** The whole address, exactly as it will be opened: untrusted text. */
  url: string;
  /** The domain it really goes to, when the host already worked it out; else read from `url` here. */
  domain?: string;
  /** The address's accessible name, e.g. "Full address". */
  label: string;
}

/**
 * An address a server or an authorization server handed over, shown whole, with the domain it really
 * goes to marked: the browser's URL parser gives a look-alike Unicode name as its punycode, so
 * "exаmple.com" with a Cyrillic "а" shows as what it is.
 */
export function AddressWithDomain({ url, domain = domainOf(url), label }: AddressWithDomainProps) {
  const at = domain ? url.indexOf(domain) : -1;
  return (
    <p className="address" role="group" aria-label={label}>
      {domain && at >= 0 ? (
        <>
          <UntrustedText text={url.slice(0, at)} />
          <mark className="address-domain">{domain}</mark>
          <UntrustedText text={url.slice(at + domain.length)} />
        </>
      ) : (
        <UntrustedText text={url} />
      )}
    </p>
  );
}

/** The host name `url` goes to (punycode for an internationalised one), or '' when it is no URL. */
export function domainOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
