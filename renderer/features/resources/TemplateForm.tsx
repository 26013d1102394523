import { useState } from 'react';
import type { ResourceTemplateSummary } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { CompletingInput } from '../../ui/CompletingInput.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { othersThan } from '../../ui/completionContext.ts';

/** The variables of a URI template (RFC 6570 simple expressions: {name}, {+name}, {/name}…). */
export function templateVariables(uriTemplate: string): string[] {
  const names = [...uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => (m[1] ?? '').split(',').map((n) => n.replace(/\*$|:\d+$/, '').trim()));
  return [...new Set(names.filter(Boolean))];
}

/** The template with each {name} replaced by its value, percent-encoded. */
export function expandTemplate(uriTemplate: string, values: Record<string, string>): string {
  return uriTemplate.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_all, operator: string, names: string) =>
    names
      .split(',')
      .map((name) => {
        const value = values[name.replace(/\*$|:\d+$/, '').trim()] ?? '';
        return operator === '+' || operator === '#' ? encodeURI(value) : encodeURIComponent(value);
      })
      .join(','),
  );
}

/** Fills a resource template's variables, each completed by the server, and opens the resource. */
export function TemplateForm({ serverId, template, onOpen }: { serverId: string; template: ResourceTemplateSummary; onOpen(uri: string): void }) {
  const api = useAtriumApi();
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const missing = variables.filter((name) => !values[name]?.trim());
  return (
    <form
      className="prompt-arguments"
      aria-label={`Template ${template.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (missing.length === 0) onOpen(expandTemplate(template.uriTemplate, values));
      }}
    >
      <h2>
        <UntrustedText text={template.title ?? template.name} />
      </h2>
      <p className="muted code-inline">
        <UntrustedText text={template.uriTemplate} />
      </p>
      {template.description ? (
        <p className="muted">
          <UntrustedText text={template.description} />
        </p>
      ) : null}
      {variables.map((name) => (
        <CompletingInput
          key={name}
          name={name}
          label={name}
          value={values[name] ?? ''}
          dependsOn={JSON.stringify(values)}
          complete={(value) =>
            api.complete({ serverId, ref: { type: 'ref/resource', name: template.uriTemplate }, argument: { name, value }, context: othersThan(values, name) }).then((answer) => answer.values)
          }
          onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
        />
      ))}
      <div className="composer-actions">
        <button type="submit" className="button button-primary" disabled={missing.length > 0}>
          Open resource
        </button>
      </div>
    </form>
  );
}
