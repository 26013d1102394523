import { useEffect, useId, useMemo, useState } from 'react';
import type { BundlePlan } from '../../shared/installs.ts';
import { BUNDLE_LIMITS } from '../../shared/installs.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import { useAtriumApi } from '../api/useAtriumApi.ts';
import { ConsentDialog } from '../ui/ConsentDialog.tsx';
import { FieldProblem, FormProblemsSummary } from '../ui/FieldProblem.tsx';
import { ProblemAlert } from '../ui/ProblemAlert.tsx';
import { useFormProblems } from '../ui/useFormProblems.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { InstallInputsForm, inputField, useInstallRequest } from './InstallInputsForm.tsx';
import { BundleAuthor, BundleChecks, InstallForm, InstalledAlready } from './OriginFacts.tsx';

/**
 * A bundle (.mcpb) the person opened: read by the host before anything of it is written (its manifest,
 * its SHA-256, that it is unsigned), its settings as a form, installed under Atrium's data folder. The
 * window sends the file's bytes; it never names a file for the host to read. Installing runs nothing:
 * its start dialog follows.
 */
export function BundleDialog({ file, onDone }: { file: File; onDone(): void }) {
  const api = useAtriumApi();
  const [bytes, setBytes] = useState<string | null>(null);
  const [plan, setPlan] = useState<BundlePlan | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [name, setName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const nameId = useId();
  const fields = useMemo(() => ['serverId', ...(plan?.inputs ?? []).map(inputField)], [plan]);
  const problems = useFormProblems(fields, nameId);

  useEffect(() => {
    if (file.size > BUNDLE_LIMITS.fileBytes) {
      setProblem(`${file.name} is ${Math.round(file.size / 1024 / 1024)} MB, over the ${BUNDLE_LIMITS.fileBytes / 1024 / 1024} MB Atrium installs.`);
      return;
    }
    let current = true;
    void readBase64(file)
      .then(async (read) => {
        const found = await api.previewBundle({ bundle: read });
        if (!current) return;
        setBytes(read);
        setPlan(found);
      })
      .catch((failure: unknown) => {
        if (current) setProblem(`${file.name} was not installed: ${errorMessage(failure)}`);
      });
    return () => {
      current = false;
    };
  }, [api, file]);

  const request = useInstallRequest(problems, (given) => api.installBundle({ bundle: bytes ?? '', sha256: plan?.sha256 ?? '', values: given, serverId: (name ?? plan?.suggestedId ?? '').trim() }), onDone);
  const { busy } = request;
  const install = async () => {
    if (bytes && plan) await request.install(values);
  };

  return (
    <ConsentDialog title={plan ? `Install ${plan.displayName ?? plan.name}` : 'Install a bundle'} from={<>The bundle <UntrustedText text={file.name} /></>} onDismiss={onDone} wide>
      {!plan && !problem ? <p className="muted">Reading the bundle…</p> : null}
      {plan ? (
        <InstallForm formRef={problems.formRef} onInstall={install}>
          <p>
            <strong><UntrustedText text={plan.name} /></strong> <UntrustedText text={plan.version} />
            <BundleAuthor author={plan.author} /> — <UntrustedText text={plan.description} />
          </p>
          <BundleChecks signature={plan.signature} sha256={plan.sha256} />
          <InstalledAlready installed={plan.installed} />
          <p className="launch-details-label">It runs (settings in braces are filled from what you give below), from its folder under Atrium’s data folder</p>
          <pre className="code-block" aria-label="What it runs">
            <UntrustedText text={plan.runs} />
          </pre>
          <InstallInputsForm inputs={plan.inputs} values={values} onChange={(key, value) => setValues((all) => ({ ...all, [key]: value }))} problems={problems} />
          <div className="field">
            <label htmlFor={nameId}>Name in Atrium</label>
            <input id={nameId} value={name ?? plan.suggestedId} onChange={(event) => setName(event.target.value)} {...problems.describe('serverId')} />
            <FieldProblem {...problems.messageFor('serverId')} />
          </div>
          <FormProblemsSummary problems={problems.problems} notDone="Not installed" />
          <p className="muted">Installing runs nothing: you are asked to start it next, with everything it will run shown.</p>
          <div className="consent-actions">
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? 'Installing…' : 'Install'}
            </button>
            <button type="button" className="button" onClick={onDone}>
              Cancel
            </button>
          </div>
        </InstallForm>
      ) : (
        <>
          <ProblemAlert text={problem} />
          <div className="consent-actions">
            <button type="button" className="button" data-autofocus onClick={onDone}>
              Close
            </button>
          </div>
        </>
      )}
    </ConsentDialog>
  );
}

/** The file's bytes as base64, as the contract carries a bundle. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error(`${file.name} could not be read`));
    reader.readAsDataURL(file);
  });
}
