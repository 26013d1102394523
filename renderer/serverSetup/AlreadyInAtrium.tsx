import { UntrustedText } from '../ui/UntrustedText.tsx';

/** A server someone offers to add that Atrium already has, under its own name or another. */
export function AlreadyInAtrium({ id, alreadyAs }: { id: string; alreadyAs: string }) {
  return (
    <p className="setup-present">
      ✓ <UntrustedText text={id} /> is already in Atrium
      {alreadyAs === id ? null : (
        <>
          {' '}
          as <UntrustedText text={alreadyAs} />
        </>
      )}
    </p>
  );
}
