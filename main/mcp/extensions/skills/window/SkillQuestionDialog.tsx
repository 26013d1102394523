import { useState } from 'react';
import type { PendingOf } from '../../../../../shared/pendingPayloads.ts';
import { ConsentDialog } from '../../../../../renderer/ui/ConsentDialog.tsx';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import type { SkillAnswer } from '../contract/skillViews.ts';
import { bytesText, changeLines } from './skillWords.ts';

/**
 * What a skill asks of the person. To be used: its name, server, description and every file, what
 * changed since they approved it, and what its `allowed-tools` asks for (granted only if ticked); the
 * answer holds until any of its files changes. While one is in use, to read a file on another server:
 * both servers named, asked every time. "Don't" is the focused and the coloured answer.
 */
export function SkillQuestionDialog({ record, answer }: { record: PendingOf<'skill'>; answer(outcome: SkillAnswer): void }) {
  const { payload } = record;
  const [grantTools, setGrantTools] = useState(false);
  const deny = () => answer({ effect: 'deny' });
  if (payload.question === 'read-elsewhere') {
    const { skill, target } = payload;
    return (
      <ConsentDialog
        title={`Read a file on ${target.serverId}?`}
        from={
          <>
            The skill <strong><UntrustedText text={skill.name} /></strong> of <strong><UntrustedText text={skill.serverId} /></strong>, in use in this conversation, asks to read a file on another server, <strong><UntrustedText text={target.serverId} /></strong>.
          </>
        }
        tone="danger"
        onDismiss={deny}
      >
        <pre className="code-block" aria-label="File">
          <UntrustedText text={target.uri} />
        </pre>
        <p className="consent-warning" role="alert">
          ⚠ A skill is its server’s instructions: allow this only if reading <UntrustedText text={target.serverId} />’s file is part of what you asked for. It is asked each time.
        </p>
        <div className="consent-actions">
          <button type="button" className="button" onClick={() => answer({ effect: 'allow' })}>
            Allow this read
          </button>
          <button type="button" className="button button-primary" data-autofocus onClick={deny}>
            Deny
          </button>
        </div>
      </ConsentDialog>
    );
  }
  const { skill, by, change, askedTools } = payload;
  const grantable = askedTools.filter((asked) => asked.tool !== undefined);
  const files = skill.files === 'dynamic' ? [] : skill.files;
  return (
    <ConsentDialog
      title={`Use the skill ${skill.name}?`}
      from={
        <>
          {by === 'person' ? 'You picked a skill of' : 'The model asks to use a skill of'} <strong><UntrustedText text={skill.serverId} /></strong>
          {skill.sharedName ? (
            <>
              {' '}(another skill is also named <UntrustedText text={skill.name} />: this one is <UntrustedText text={skill.serverId} />’s, at <UntrustedText text={skill.uri} />)
            </>
          ) : null}
          .
        </>
      }
      tone={change ? 'danger' : 'normal'}
      wide
      onDismiss={deny}
    >
      <p className="consent-description">
        <UntrustedText text={skill.description} />
      </p>
      {change ? (
        <div className="consent-warning" role="alert">
          ⚠ This skill changed since you approved it:
          <ul aria-label="What changed">
            {changeLines(change).map((line) => (
              <li key={`${line.sign}${line.path}`}>
                {line.sign} <UntrustedText text={line.path} /> ({line.what})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h3 className="consent-subtitle">Its files ({bytesText(skill.totalBytes)})</h3>
      <ul className="skill-files" aria-label="Its files">
        {files.map((file) => (
          <li key={file.uri}>
            <UntrustedText text={file.path} /> <span className="muted">{bytesText(file.size)} · {file.digest.slice(0, 19)}…</span>
          </li>
        ))}
      </ul>
      <p className="muted">
        Its text reaches the model marked as <UntrustedText text={skill.serverId} />’s content, not yours. Your answer holds for exactly these files: if any changes, Atrium asks again.
      </p>
      {askedTools.length > 0 ? (
        <div className="consent-declaration">
          <p>
            Its <code>allowed-tools</code> asks to run these without asking:{' '}
            {askedTools.map((asked, index) => (
              <span key={asked.asked}>
                {index > 0 ? ', ' : ''}
                <UntrustedText text={asked.tool ?? asked.asked} />
                {asked.tool ? null : <span className="muted"> (no such tool of {skill.serverId}: nothing granted)</span>}
              </span>
            ))}
            .
          </p>
          {grantable.length > 0 ? (
            <label className="consent-check">
              <input type="checkbox" checked={grantTools} onChange={(event) => setGrantTools(event.target.checked)} />
              Also let {grantable.map((asked) => asked.tool).join(', ')} run without asking in conversations that use this skill
            </label>
          ) : null}
        </div>
      ) : null}
      <div className="consent-actions">
        <button type="button" className="button" onClick={() => answer({ effect: 'allow', ...(grantTools ? { grantTools: true } : {}) })}>
          Use the skill
        </button>
        <button type="button" className="button button-primary" data-autofocus onClick={deny}>
          Don’t use it
        </button>
      </div>
    </ConsentDialog>
  );
}
