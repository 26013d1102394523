import { useEffect, useMemo } from 'react';
import type { PromptSummary } from '../../../shared/domain.ts';
import { allOf, catalogErrorKey } from '../../store/catalogSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { matchPrompts } from './slashCommands.ts';

interface PromptPickerProps {
  /** The listbox's id; option N is `${id}-N`, so the composer can point at the highlighted one. */
  id: string;
  query: string;
  /** The index of the highlighted option, moved by the composer's arrow keys. */
  active: number;
  onOptions(options: PromptSummary[]): void;
  onPick(prompt: PromptSummary): void;
}

/** The list that opens when the composer starts with "/": every ready server's prompts, best match first. */
export function PromptPicker({ id, query, active, onOptions, onPick }: PromptPickerProps) {
  const servers = useAtriumStore((state) => state.servers);
  const catalogs = useAtriumStore((state) => state.catalogs);
  const errors = useAtriumStore((state) => state.catalogErrors);
  const prompts = useMemo(() => allOf(servers, catalogs, 'prompts') ?? null, [servers, catalogs]);
  const error = servers.map((server) => errors[catalogErrorKey(server.id, 'prompts')]).find((message) => message !== undefined);
  const options = useMemo(() => (prompts ? matchPrompts(query, prompts) : []), [prompts, query]);
  useEffect(() => onOptions(options), [onOptions, options]);

  return (
    <ul className="prompt-picker" role="listbox" id={id} aria-label="Prompts">
      {error ? <li role="alert">{error}</li> : prompts === null ? <li className="muted">Loading prompts…</li> : null}
      {prompts !== null && options.length === 0 ? <li className="muted">No prompt matches “{query}”.</li> : null}
      {options.map((prompt, index) => (
        <li
          key={`${prompt.serverId}/${prompt.name}`}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'prompt-option prompt-option-active' : 'prompt-option'}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(prompt);
          }}
        >
          <span className="prompt-option-name">
            /<UntrustedText text={prompt.name} /> <span className="muted">· <UntrustedText text={prompt.serverId} /></span>
          </span>
          {prompt.title || prompt.description ? (
            <span className="muted">
              <UntrustedText text={prompt.title ?? prompt.description ?? ''} />
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
