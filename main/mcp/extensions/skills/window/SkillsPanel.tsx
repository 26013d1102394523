import { useEffect, useState } from 'react';
import type { ServerSnapshot } from '../../../../../shared/domain.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { EmptyState } from '../../../../../renderer/ui/EmptyState.tsx';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import type { ShownSkill, SkillSummary } from '../contract/skillViews.ts';
import { approvalText, bytesText, changeLines } from './skillWords.ts';

/**
 * Servers › a server › Skills: what the server offers, from its listing alone (no file is read to show
 * it): each skill's name, description, files and where the person stands on it. "Show" reads its SKILL.md
 * and checks it as a use would, for the person only; "Forget my approval" makes the next use ask again.
 */
export function SkillsPanel({ server }: { server: ServerSnapshot }) {
  const api = useAtriumApi();
  const list = useAtriumStore((state) => state.skills[server.id]);
  const [error, setError] = useState<string | null>(null);
  // Opening the tab lists the skills again where the server's listing is out of date.
  useEffect(() => {
    api.listSkills({ serverId: server.id }).catch((failure: unknown) => setError(errorMessage(failure)));
  }, [api, server.id]);

  if (error) return <p role="alert" className="panel-pad">{error}</p>;
  if (!list) return <p className="muted panel-pad">Listing skills…</p>;
  return (
    <div className="panel-pad">
      <p className="muted">
        A skill is written instructions the model can follow, with files. Nothing of a skill is read until it is used; its first use asks you, and so does its next use after any of its files changes. What it says reaches the model as {server.id}’s content.
      </p>
      {list.error ? <p role="alert">The skills could not be listed now: <UntrustedText text={list.error} /></p> : null}
      {list.skills.length === 0 ? <EmptyState title="No skills">{server.id} lists no skills.</EmptyState> : null}
      <ul className="tools-list skill-list" aria-label={`Skills of ${server.id}`}>
        {list.skills.map((skill) => (
          <SkillRow key={skill.uri} skill={skill} />
        ))}
      </ul>
      {list.refusedEntries.length > 0 ? (
        <>
          <h3 className="consent-subtitle">Entries Atrium refused</h3>
          <ul aria-label="Refused entries">
            {list.refusedEntries.map((entry, index) => (
              <li key={index} className="muted">
                <UntrustedText text={`${entry.uri ?? 'an entry'}: ${entry.reason}`} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function SkillRow({ skill }: { skill: SkillSummary }) {
  const api = useAtriumApi();
  const [shown, setShown] = useState<ShownSkill | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const files = skill.files === 'dynamic' ? null : skill.files;
  const show = () => {
    setProblem(null);
    api.showSkill({ serverId: skill.serverId, uri: skill.uri }).then(setShown, (failure: unknown) => setProblem(errorMessage(failure)));
  };
  const forget = () => void api.revokeSkillApproval({ serverId: skill.serverId, uri: skill.uri }).catch((failure: unknown) => setProblem(errorMessage(failure)));
  return (
    <li className="tool-row skill-row">
      <article className="tool-row-text" aria-label={`Skill ${skill.name}`}>
        <span className="tool-row-name">
          <UntrustedText text={skill.name} />
          {skill.sharedName ? <span className="muted"> · another skill is also named so: this one is {skill.serverId}’s, at <UntrustedText text={skill.uri} /></span> : null}
        </span>
        <span className="muted">
          <UntrustedText text={skill.description} />
        </span>
        <span className="muted">
          {files ? `${files.length} file${files.length === 1 ? '' : 's'}, ${bytesText(skill.totalBytes)}` : 'Files made on demand'} · <UntrustedText text={skill.uri} />
          {skill.listed ? null : ' · not in the server’s listing'}
        </span>
        {skill.refused ? (
          <span className="chip chip-warn">Atrium will not load it: <UntrustedText text={skill.refused} /></span>
        ) : (
          <span className={skill.approval.kind === 'changed' ? 'chip chip-warn' : 'chip'}>{approvalText(skill.approval)}</span>
        )}
        {skill.approval.kind === 'changed' ? (
          <ul className="skill-change" aria-label={`What changed in ${skill.name}`}>
            {changeLines(skill.approval.change).map((line) => (
              <li key={`${line.sign}${line.path}`} className={line.sign === '−' ? 'diff-removed' : 'diff-added'}>
                {line.sign} <UntrustedText text={line.path} /> ({line.what})
              </li>
            ))}
          </ul>
        ) : null}
        {skill.allowedTools.length > 0 ? (
          <span className="muted">
            Its allowed-tools asks for <UntrustedText text={skill.allowedTools.join(', ')} />: granted only if you approve that when it is used.
          </span>
        ) : null}
        {problem ? <span role="alert">{problem}</span> : null}
        {shown ? (
          <div className="skill-text">
            <p className="muted">SKILL.md, checked against the size, digest and frontmatter {skill.serverId} listed:</p>
            <pre className="code-block" tabIndex={0} aria-label={`SKILL.md of ${skill.name}`}>
              <UntrustedText text={shown.text} />
            </pre>
          </div>
        ) : null}
      </article>
      <div className="skill-actions">
        {skill.refused ? null : (
          <button type="button" className="button" aria-label={`Show ${skill.name}`} onClick={shown ? () => setShown(null) : show}>
            {shown ? 'Hide' : 'Show'}
          </button>
        )}
        {skill.approval.kind === 'not-asked' ? null : (
          <button type="button" className="button" aria-label={`Forget my approval of ${skill.name}`} onClick={forget}>
            Forget my approval
          </button>
        )}
      </div>
    </li>
  );
}
