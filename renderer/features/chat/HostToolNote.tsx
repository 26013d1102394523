import { UntrustedText } from '../../ui/UntrustedText.tsx';

/**
 * A call of one of Atrium's own tools (the tool search, a skill's use), said in a line; what Atrium did
 * not do for the model (a skill refused, a file its server did not list) is said there too, where the
 * model asked, not only in what the model makes of it.
 */
export function HostToolNote({ sentence, refused }: { sentence: string; refused: string | undefined }) {
  return (
    <p className="host-tool-note muted">
      <UntrustedText text={sentence} />
      {refused !== undefined ? (
        <span className="host-tool-refused">
          {' — '}
          <UntrustedText text={refused} />
        </span>
      ) : null}
    </p>
  );
}
