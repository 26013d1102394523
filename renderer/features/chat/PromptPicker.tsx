import { useEffect, useMemo } from 'react';
import type { PromptSummary } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../api/useHostQuery.ts';
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
  const api = useAtriumApi();
  const { data: prompts, error, reload } = useHostQuery(() => api.listPrompts({}), 'prompts');
  useEffect(() => api.on('listChanged', ({ list }) => list === 'prompts' && void reload()), [api, reload]);
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
