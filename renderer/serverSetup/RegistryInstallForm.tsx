import { useId, useMemo, useState } from 'react';
import type { RegistryEntryView } from '../../shared/installs.ts';
import { useAtriumApi } from '../api/useAtriumApi.ts';
import { useHostQuery } from '../store/useHostQuery.ts';
import { ConsentDialog } from '../ui/ConsentDialog.tsx';
import { FieldProblem, FormProblemsSummary } from '../ui/FieldProblem.tsx';
import { ProblemAlert } from '../ui/ProblemAlert.tsx';
import { useFormProblems } from '../ui/useFormProblems.ts';
import { RadioChoices } from '../ui/RadioChoices.tsx';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { InstallInputsForm, inputField, useInstallRequest } from './InstallInputsForm.tsx';
import { InstallForm, InstalledAlready, PublisherLine } from './OriginFacts.tsx';

/**
 * One registry entry, to install: who published it (and whether anyone checked), the ways it can run,
 * what the chosen way will run, the values it asks for, and the name it gets. Installing runs nothing:
 * its start dialog follows, which the person answers.
 */
export function RegistryInstallForm({ entry, registry, onBack, onInstalled }: { entry: RegistryEntryView; registry: string; onBack(): void; onInstalled(): void }) {
  const api = useAtriumApi();
  const { data: plan, error } = useHostQuery(() => api.planRegistryInstall({ name: entry.name, version: entry.version, registry }), `${entry.name}@${entry.version}`);
  const [choice, setChoice] = useState<number | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [name, setName] = useState<string | null>(null);
  const nameId = useId();
  const installable = plan?.choices.flatMap((way, index) => (way.unsupported ? [] : [index])) ?? [];
  const picked = choice ?? installable[0];
  const way = picked === undefined ? undefined : plan?.choices[picked];
  const fields = useMemo(() => ['serverId', ...(way?.inputs ?? []).map(inputField)], [way]);
  const problems = useFormProblems(fields, nameId);

  const request = useInstallRequest(
    problems,
    (given) => api.installFromRegistry({ name: entry.name, version: entry.version, registry, choice: picked ?? 0, values: given, serverId: (name ?? plan?.suggestedId ?? '').trim() }),
    onInstalled,
  );
  const { busy } = request;
  const install = async () => {
    if (picked !== undefined) await request.install(values);
  };

  return (
    <ConsentDialog title={`Install ${entry.title ?? entry.name}`} from={<>From the registry at <UntrustedText text={registry} /></>} onDismiss={onBack} wide>
      <p>
        <strong><UntrustedText text={entry.name} /></strong> <UntrustedText text={entry.version} /> — <UntrustedText text={entry.description} />
      </p>
      <PublisherLine publisher={entry.publisher} />
      {entry.status === 'deprecated' ? (
        <p className="consent-warning">
          Deprecated{entry.statusMessage ? ': ' : '.'}
          {entry.statusMessage ? <UntrustedText text={entry.statusMessage} /> : null}
        </p>
      ) : null}
      <ProblemAlert text={error} />
      {!plan && !error ? <p className="muted">Reading the entry…</p> : null}
      {plan ? (
        <InstallForm formRef={problems.formRef} onInstall={install}>
          <InstalledAlready installed={plan.installed} />
          {installable.length > 1 ? (
            <RadioChoices
              legend="How it runs"
              name="install-way"
              choices={installable.map((index) => ({ value: String(index), label: plan.choices[index]?.label ?? '' }))}
              value={String(picked)}
              onChange={(value) => setChoice(Number(value))}
            />
          ) : null}
          {/* With nothing left to install, why each way is refused is the answer: a warning, not a footnote
              (a bundle that is not the file its entry published is one). */}
          {plan.choices
            .filter((option) => option.unsupported)
            .map((option, index) => (
              <p key={index} className={way ? 'muted' : 'consent-warning'}>
                Not offered: <UntrustedText text={option.label} /> — <UntrustedText text={option.unsupported ?? ''} />
              </p>
            ))}
          {way ? (
            <>
              <p className="launch-details-label">{way.kind === 'remote' ? 'It connects to' : 'It runs'}
                {way.runs.includes('{') ? ' (values in braces are filled from what you give below)' : ''}
              </p>
              <pre className="code-block" aria-label="What it runs">
                <UntrustedText text={way.runs} />
              </pre>
              <InstallInputsForm inputs={way.inputs} values={values} onChange={(key, value) => setValues((all) => ({ ...all, [key]: value }))} problems={problems} />
              <div className="field">
                <label htmlFor={nameId}>Name in Atrium</label>
                <input id={nameId} value={name ?? plan.suggestedId} onChange={(event) => setName(event.target.value)} {...problems.describe('serverId')} />
                <FieldProblem {...problems.messageFor('serverId')} />
              </div>
            </>
          ) : (
            <p className="consent-problem">Atrium cannot install any way this entry offers.</p>
          )}
          <FormProblemsSummary problems={problems.problems} notDone="Not installed" />
          {way ? <p className="muted">Installing runs nothing: you are asked to start it next, with everything it will run shown.</p> : null}
          <div className="consent-actions">
            {way ? (
              <button type="submit" className="button button-primary" disabled={busy}>
                {busy ? 'Installing…' : 'Install'}
              </button>
            ) : null}
            <button type="button" className="button" onClick={onBack}>
              Back
            </button>
          </div>
        </InstallForm>
      ) : null}
    </ConsentDialog>
  );
}
