import { useId } from 'react';
import type { Grant, GrantTarget, ServerSnapshot } from '../../../shared/domain.ts';
import { serverWideReach } from '../../../shared/approvalReach.ts';
import { toolReach } from '../../../shared/toolHints.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { useActionProblem } from '../../ui/useActionProblem.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

type Rule = 'ask' | 'allow' | 'deny';

const RULE_LABELS: Record<Rule, string> = { ask: 'Ask as usual', allow: 'Always allow', deny: 'Always deny' };

/**
 * The rules that decide this server's tool calls before anyone is asked: for every tool, for its
 * read-only tools, and for each tool. A rule is an "always" answer the person gives here rather than in
 * a question (the same grant, revoked by "Ask as usual"); each says what it covers, as the server lists
 * its tools now, and when it gives way to untrusted content.
 */
export function ServerToolRules({ server, grants }: { server: ServerSnapshot; grants: readonly Grant[] }) {
  const api = useAtriumApi();
  const headingId = useId();
  const tools = useAtriumStore((state) => state.catalogs[server.id]?.tools ?? null);
  const actionProblem = useActionProblem();
  const error = actionProblem.problem;
  if (!tools || tools.length === 0) return null;

  const always = grants.filter((grant) => grant.scope === 'always');
  const ruleFor = (matches: (target: GrantTarget) => boolean) => always.find((grant) => matches(grant.target));
  const everyTool = ruleFor((target) => target.tool === undefined && target.only === undefined);
  const readOnlyTools = ruleFor((target) => target.only === 'read-only');
  const reaches = tools.filter((tool) => tool.enabled).map(toolReach);
  const readOnlyCount = reaches.filter((tool) => tool.readOnly).length;
  const described = { serverId: server.id, serverTools: reaches, trusted: server.trusted };

  const choose = (target: Omit<GrantTarget, 'serverId'>, rule: Rule, current: Grant | undefined) => {
    actionProblem.clear();
    const done = rule === 'ask' ? (current ? api.revokeGrant({ id: current.id }) : Promise.resolve(null)) : api.addGrant({ serverId: server.id, ...target, effect: rule });
    done.catch((failure: unknown) => actionProblem.fail(failure));
  };

  return (
    <section className="tool-rules" aria-labelledby={headingId}>
      <h3 id={headingId} className="tool-rules-title">
        Rules
      </h3>
      <p className="muted">
        A rule decides this server’s tool calls without asking you. Once a conversation holds content Atrium does not trust (from a server you do not trust, or a tool that reads
        the web), a tool that may delete things or reach beyond this computer asks there every time, whatever a rule allows.
      </p>
      {error ? <p role="alert">{error}</p> : null}
      <ul className="grants-list" aria-label={`Rules for ${server.id}`}>
        <RuleRow label="Every tool" rule={everyTool?.effect ?? 'ask'} onChoose={(rule) => choose({}, rule, everyTool)} explained={serverWideReach(described, 'server')} />
        {readOnlyCount > 0 ? (
          <RuleRow
            label={`Its read-only tools (${readOnlyCount})`}
            rule={readOnlyTools?.effect ?? 'ask'}
            rules={['ask', 'allow']}
            onChoose={(rule) => choose({ only: 'read-only' }, rule, readOnlyTools)}
            explained={serverWideReach(described, 'read-only-tools')}
          />
        ) : null}
        {tools.map((tool) => {
          const own = ruleFor((target) => target.tool === tool.name);
          // Without a rule of its own, a tool follows a server-wide rule that covers it.
          const inherited =
            everyTool && tool.name in everyTool.fingerprints
              ? `${everyTool.effect === 'allow' ? 'Allowed' : 'Denied'} with every tool`
              : readOnlyTools && tool.name in readOnlyTools.fingerprints
                ? 'Allowed with its read-only tools'
                : undefined;
          return (
            <RuleRow
              key={tool.name}
              label={tool.name}
              untrusted
              rule={own?.effect ?? 'ask'}
              {...(inherited ? { askLabel: inherited } : {})}
              note={toolReach(tool).keepsAfterUntrusted ? undefined : 'asks again after untrusted content'}
              onChoose={(rule) => choose({ tool: tool.name }, rule, own)}
            />
          );
        })}
      </ul>
    </section>
  );
}

function RuleRow({
  label,
  untrusted = false,
  rule,
  rules = ['ask', 'allow', 'deny'],
  onChoose,
  explained,
  askLabel = RULE_LABELS.ask,
  note,
}: {
  label: string;
  /** The label is a name the server chose. */
  untrusted?: boolean;
  rule: Rule;
  rules?: readonly Rule[];
  onChoose(rule: Rule): void;
  explained?: string;
  /** What "no rule of its own" means here. */
  askLabel?: string;
  note?: string | undefined;
}) {
  return (
    <li className="rule-row">
      <span className="rule-row-text">
        <span>
          <strong>{untrusted ? <UntrustedText text={label} /> : label}</strong>
          {note ? <span className="chip rule-row-note">{note}</span> : null}
        </span>
        {explained ? (
          <span className="muted">
            <UntrustedText text={explained} />
          </span>
        ) : null}
      </span>
      <select aria-label={`Rule for ${label}`} value={rule} onChange={(event) => onChoose(rules.find((value) => value === event.target.value) ?? 'ask')}>
        {rules.map((value) => (
          <option key={value} value={value}>
            {value === 'ask' ? askLabel : RULE_LABELS[value]}
          </option>
        ))}
      </select>
    </li>
  );
}
