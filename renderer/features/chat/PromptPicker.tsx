import { useEffect, useMemo } from 'react';
import type { SlashOption } from './slashCommands.ts';
import { allOf, catalogErrorKey } from '../../store/catalogSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { matchSlash, optionKey } from './slashCommands.ts';

interface PromptPickerProps {
  /** The listbox's id; option N is `${id}-N`, so the composer can point at the highlighted one. */
  id: string;
  query: string;
  /** The index of the highlighted option, moved by the composer's arrow keys. */
  active: number;
  onOptions(options: SlashOption[]): void;
  onPick(option: SlashOption): void;
}

/** The list that opens when the composer starts with "/": every ready server's prompts and skills, each with its server, best match first. */
export function PromptPicker({ id, query, active, onOptions, onPick }: PromptPickerProps) {
  const servers = useAtriumStore((state) => state.servers);
  const catalogs = useAtriumStore((state) => state.catalogs);
  const errors = useAtriumStore((state) => state.catalogErrors);
  const skillLists = useAtriumStore((state) => state.skills);
  const prompts = useMemo(() => allOf(servers, catalogs, 'prompts') ?? null, [servers, catalogs]);
  // A skill Atrium will not load (too large, no digests) is not offered.
  const skills = useMemo(() => Object.values(skillLists).flatMap((list) => list.skills.filter((skill) => skill.refused === undefined)), [skillLists]);
  const error = servers.map((server) => errors[catalogErrorKey(server.id, 'prompts')]).find((message) => message !== undefined);
  const all = useMemo((): SlashOption[] | null => (prompts ? [...prompts.map((prompt) => ({ kind: 'prompt' as const, prompt })), ...skills.map((skill) => ({ kind: 'skill' as const, skill }))] : null), [prompts, skills]);
  const options = useMemo(() => (all ? matchSlash(query, all) : []), [all, query]);
  useEffect(() => onOptions(options), [onOptions, options]);

  return (
    <ul className="prompt-picker" role="listbox" id={id} aria-label={skills.length > 0 ? 'Prompts and skills' : 'Prompts'}>
      {error ? <li role="alert">{error}</li> : all === null ? <li className="muted">Loading prompts…</li> : null}
      {all !== null && options.length === 0 ? (
        <li className="muted">
          {all.length === 0 ? 'No server offers prompts or skills: a slash command runs one of those.' : <>Nothing matches “{query}”.</>}
        </li>
      ) : null}
      {options.map((option, index) => (
        <li
          key={optionKey(option)}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'prompt-option prompt-option-active' : 'prompt-option'}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(option);
          }}
        >
          {option.kind === 'prompt' ? <PromptLine option={option} /> : <SkillLine option={option} />}
        </li>
      ))}
    </ul>
  );
}

function PromptLine({ option: { prompt } }: { option: Extract<SlashOption, { kind: 'prompt' }> }) {
  return (
    <>
      <span className="prompt-option-name">
        /<UntrustedText text={prompt.name} /> <span className="muted">· <UntrustedText text={prompt.serverId} /></span>
      </span>
      {prompt.title || prompt.description ? (
        <span className="muted">
          <UntrustedText text={prompt.title ?? prompt.description ?? ''} />
        </span>
      ) : null}
    </>
  );
}

function SkillLine({ option: { skill } }: { option: Extract<SlashOption, { kind: 'skill' }> }) {
  return (
    <>
      <span className="prompt-option-name">
        /<UntrustedText text={skill.name} /> <span className="chip">skill</span> <span className="muted">· <UntrustedText text={skill.serverId} /></span>
        {skill.sharedName ? (
          <span className="muted">
            {' '}
            · <UntrustedText text={skill.uri} />
          </span>
        ) : null}
      </span>
      <span className="muted">
        <UntrustedText text={skill.description} />
      </span>
    </>
  );
}
