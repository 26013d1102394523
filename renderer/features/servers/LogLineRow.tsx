import type { LogLine } from '../../../shared/domain.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

/** One log line; the text comes from the server: rendered as text, its hidden characters made visible. */
export function LogLineRow({ line }: { line: LogLine }) {
  return (
    <li className={`log-line log-${line.level}`}>
      <time className="log-time" dateTime={new Date(line.at).toISOString()}>
        {time.format(line.at)}
      </time>
      <span className="log-level">{line.level}</span>
      <span className="log-source">{line.source}</span>
      <UntrustedText className="log-text" text={line.text} />
    </li>
  );
}
