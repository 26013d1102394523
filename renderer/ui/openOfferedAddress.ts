// Opening an address a server or a model handed over (a link in a reply, a view's ui/open-link): the
// URL policy decides whether it may be opened at all, then the person confirms the full address and
// where it really goes before a new tab opens it (without access back to Atrium's page).
import { checkOfferedAddress } from '../../shared/offeredAddress.ts';
import { askToOpen } from './LinkConfirmation.tsx';

export type OpenOutcome = { opened: true } | { opened: false; reason: string };

/** Asks the person (Atrium's own dialog), then opens the address in a new tab. */
export async function openOfferedAddress(href: string, askedBy?: string): Promise<OpenOutcome> {
  const verdict = checkOfferedAddress(href);
  if (!verdict.ok) return { opened: false, reason: verdict.reason };
  return (await askToOpen(verdict.address, askedBy)) ? { opened: true } : { opened: false, reason: 'the person chose not to open it' };
}
