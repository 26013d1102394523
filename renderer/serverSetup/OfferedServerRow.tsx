import type { ReactNode } from 'react';
import type { OfferedServer } from '../../shared/contract.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { AlreadyInAtrium } from './AlreadyInAtrium.tsx';

/**
 * One server someone offers to add (another host's config, a pasted block): ticked to take it, with the
 * exact command line or address it would run; or said to be in Atrium already. `children` adds what the
 * offer asks beside it (the trust of an imported server).
 */
export function OfferedServerRow({ server, verb, taken, onTake, children }: { server: OfferedServer; verb: string; taken: boolean; onTake(take: boolean): void; children?: ReactNode }) {
  return (
    <li>
      {server.alreadyAs ? (
        <AlreadyInAtrium id={server.id} alreadyAs={server.alreadyAs} />
      ) : (
        <label className="consent-check">
          <input type="checkbox" checked={taken} onChange={(event) => onTake(event.target.checked)} />
          {verb} <strong><UntrustedText text={server.id} /></strong>
        </label>
      )}
      <pre className="code-block" aria-label={`${server.transport === 'stdio' ? 'Command line' : 'Address'} of ${server.id}`}>
        <UntrustedText text={server.target} />
      </pre>
      {server.alreadyAs ? null : children}
    </li>
  );
}
