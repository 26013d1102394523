import type { ReactNode } from 'react';
import { UntrustedText } from './UntrustedText.tsx';

/** JSON as a tree whose objects and arrays fold; every key and string in it is untrusted text. */
export function JsonTree({ value, name }: { value: unknown; name?: string }): ReactNode {
  const label =
    name !== undefined ? (
      <span className="json-key">
        <UntrustedText text={name} />:{' '}
      </span>
    ) : null;
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
    return (
      <details open className="json-node">
        <summary>
          {label}
          {Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`}
        </summary>
        <ul className="json-children">
          {entries.map(([key, child]) => (
            <li key={key}>
              <JsonTree value={child} name={key} />
            </li>
          ))}
        </ul>
      </details>
    );
  }
  return (
    <span className="json-leaf">
      {label}
      <span className={`json-${value === null ? 'null' : typeof value}`}>{typeof value === 'string' ? <UntrustedText text={JSON.stringify(value)} /> : String(value)}</span>
    </span>
  );
}
