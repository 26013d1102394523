// Opening an address a server or a model handed over (a link in a reply, a view's ui/open-link): the
// URL policy decides whether it may be opened at all, then the person confirms the full address and
// where it really goes before a new tab opens it (without access back to Atrium's page).
import { checkOfferedAddress } from '../../shared/offeredAddress.ts';
import type { OfferedAddress } from '../../shared/offeredAddress.ts';
import { shownText } from '../../shared/visibleText.ts';

export type OpenOutcome = { opened: true } | { opened: false; reason: string };

/** Asks the person (the browser's own confirmation), then opens the address in a new tab. */
export function openOfferedAddress(href: string, askedBy?: string): OpenOutcome {
  const verdict = checkOfferedAddress(href);
  if (!verdict.ok) return { opened: false, reason: verdict.reason };
  if (!window.confirm(confirmation(verdict.address, askedBy))) return { opened: false, reason: 'the person chose not to open it' };
  window.open(verdict.address.href, '_blank', 'noopener,noreferrer');
  return { opened: true };
}

export function confirmation(address: OfferedAddress, askedBy?: string): string {
  const unicode = address.unicodeRegistrableDomain !== address.registrableDomain ? ` (in Unicode: ${address.unicodeRegistrableDomain})` : '';
  const warnings = address.warnings.map((warning) => `\n⚠ ${warning}`).join('');
  const who = askedBy ? `${shownText(askedBy)} asks to open an address.\n\n` : '';
  return `${who}Open this address in your browser?\n\n${shownText(address.href)}\n\nIt goes to ${address.registrableDomain}${unicode}.${warnings}`;
}
