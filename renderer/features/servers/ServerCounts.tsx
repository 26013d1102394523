import type { ServerCounts as Counts } from '../../../shared/domain.ts';

const labels: [keyof Counts, string][] = [
  ['tools', 'Tools'],
  ['resources', 'Resources'],
  ['resourceTemplates', 'Templates'],
  ['prompts', 'Prompts'],
];

/** What a server offers, one list item per kind ("Tools 17"), so it reads well and is easy to find. */
export function ServerCounts({ counts, serverId }: { counts: Counts; serverId: string }) {
  return (
    <ul className="counts" aria-label={`What ${serverId} offers`}>
      {labels.map(([key, label]) => (
        <li className="count" key={key}>
          <span className="count-label">{label}</span> <span className="count-value">{counts[key]}</span>
        </li>
      ))}
    </ul>
  );
}
