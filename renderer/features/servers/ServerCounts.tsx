import { useId } from 'react';
import type { ServerCounts as Counts } from '../../../shared/domain.ts';

const labels: [keyof Counts, string][] = [
  ['tools', 'Tools'],
  ['resources', 'Resources'],
  ['resourceTemplates', 'Templates'],
  ['prompts', 'Prompts'],
];

/** What a server offers; each number is named by its term (getByRole('definition', { name: 'Tools' })). */
export function ServerCounts({ counts }: { counts: Counts }) {
  const id = useId();
  return (
    <dl className="counts">
      {labels.map(([key, label]) => (
        <div className="count" key={key}>
          <dt id={`${id}-${key}`}>{label}</dt>
          <dd aria-labelledby={`${id}-${key}`}>{counts[key]}</dd>
        </div>
      ))}
    </dl>
  );
}
