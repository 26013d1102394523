import type { ServerSnapshot, TransportKind } from '../../../shared/domain.ts';
import { Fact } from '../../ui/Fact.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { capabilityList } from './capabilityList.ts';

const transportLabels: Record<TransportKind, string> = {
  stdio: 'stdio: a program on this computer',
  http: 'Streamable HTTP',
  sse: 'HTTP+SSE (the legacy transport)',
};

/**
 * What the server is: who it says it is, the protocol it agreed, how Atrium reaches it, whether its
 * annotations are believed, what it declares it can do, and what it tells the model. Everything the
 * server sent is shown as untrusted text.
 */
export function ServerAboutPanel({ server }: { server: ServerSnapshot }) {
  const info = server.serverInfo;
  const notYet = <span className="muted">known once it is ready</span>;
  return (
    <div className="panel-pad about">
      <dl className="about-facts" aria-label={`About ${server.id}`}>
        <Fact term="Name">{info ? <UntrustedText text={info.name} /> : notYet}</Fact>
        {info?.title ? (
          <Fact term="Title">
            <UntrustedText text={info.title} />
          </Fact>
        ) : null}
        <Fact term="Version">{info ? <UntrustedText text={info.version} /> : notYet}</Fact>
        <Fact term="Protocol">
          {server.protocolVersion ? (
            <>
              <UntrustedText text={server.protocolVersion} />{' '}
              <span className="muted">{server.era === 'modern' ? '(agreed by server/discover)' : '(agreed by initialize)'}</span>
            </>
          ) : (
            notYet
          )}
        </Fact>
        <Fact term="Transport">{transportLabels[server.transport]}</Fact>
        <Fact term={server.transport === 'stdio' ? 'Command line' : 'Address'}>
          <code className="code-inline about-target">
            <UntrustedText text={server.target} />
          </code>
        </Fact>
        <Fact term="Trust">
          {server.trusted ? 'Trusted: what its tools say about themselves is believed' : 'Not trusted: what its tools say about themselves is shown, not believed, and every call asks'}
        </Fact>
      </dl>
      <Capabilities server={server} />
      {server.instructions ? (
        <section className="about-section" aria-label={`Instructions from ${server.id}`}>
          <h3>Instructions</h3>
          <p className="muted">What the server tells the model about using it.</p>
          <div className="code-block about-instructions">
            <UntrustedText text={server.instructions} />
          </div>
        </section>
      ) : null}
    </div>
  );
}

function Capabilities({ server }: { server: ServerSnapshot }) {
  const capabilities = server.capabilities ? capabilityList(server.capabilities) : null;
  return (
    <section className="about-section" aria-label={`Capabilities of ${server.id}`}>
      <h3>Capabilities</h3>
      {!capabilities ? <p className="muted">Known once the server is ready.</p> : null}
      {capabilities?.length === 0 ? <p className="muted">It declares none.</p> : null}
      {capabilities?.length ? (
        <ul className="about-capabilities">
          {capabilities.map((capability) => (
            <li key={capability.name}>
              <strong className="code-inline">
                <UntrustedText text={capability.name} />
              </strong>{' '}
              <span className="muted">{capability.meaning ?? 'not one Atrium uses'}</span>
              {capability.features.length > 0 ? (
                <ul className="about-features">
                  {capability.features.map((feature) => (
                    <li key={feature.key}>
                      <span className="chip">
                        <UntrustedText text={feature.key} />
                      </span>
                      {feature.meaning ? <span className="muted"> {feature.meaning}</span> : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
