import type { InstallInput, ServerOrigin, ServerReach } from '../../shared/installs.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { BundleAuthor, BundleChecks, PublisherLine } from './OriginFacts.tsx';

const KIND_WORDS: Record<InstallInput['kind'], string> = {
  environment: 'environment variable',
  header: 'header',
  url: 'part of its address',
  argument: 'argument',
  setting: 'setting',
};

/**
 * Where an installed server came from, said before it first runs: a registry's entry with its publisher
 * and whether anyone checked them, or a bundle with its hash and the plain fact that it is unsigned; and
 * every value it asks for, the secrets named as such.
 */
export function ServerOriginDetails({ origin }: { origin: ServerOrigin }) {
  return (
    <section className="launch-origin" aria-label="Where it comes from">
      {origin.kind === 'registry' ? (
        <>
          <p>
            From the registry at <UntrustedText text={origin.registry} />: <strong><UntrustedText text={origin.name} /></strong> <UntrustedText text={origin.version} />
          </p>
          <PublisherLine publisher={origin.publisher} />
          {origin.deprecated ? (
            <p className="consent-warning">
              Deprecated by its publisher: <UntrustedText text={origin.deprecated} />
            </p>
          ) : null}
        </>
      ) : (
        <>
          <p>
            From the bundle <strong><UntrustedText text={origin.name} /></strong> <UntrustedText text={origin.version} />
            <BundleAuthor author={origin.author} />
          </p>
          <BundleChecks signature={origin.signature} sha256={origin.sha256} />
        </>
      )}
      <InputsAsked inputs={origin.inputs} />
    </section>
  );
}

function InputsAsked({ inputs }: { inputs: readonly InstallInput[] }) {
  if (inputs.length === 0) return <p className="muted">It asks for no values.</p>;
  return (
    <div>
      <p className="launch-risks-title">It asks for:</p>
      <ul aria-label="Values it asks for">
        {inputs.map((input) => (
          <li key={input.key}>
            <UntrustedText text={input.key} /> — {KIND_WORDS[input.kind]}
            {input.secret ? ', a secret kept in Atrium’s encrypted store' : ''}
            {input.required ? '' : ' (optional)'}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the server will be able to touch once it runs, as its sandbox profile says. */
export function ServerReachDetails({ reach }: { reach: ServerReach }) {
  return (
    <section className={reach.sandboxed ? 'launch-reach' : 'launch-reach launch-reach-open'} aria-label="What it can touch">
      <p className="launch-risks-title">What it can touch</p>
      <p>{reach.summary}</p>
      {reach.details.length ? (
        <ul>
          {reach.details.map((detail, index) => (
            <li key={index}>
              <UntrustedText text={detail} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
