import { useState } from 'react';
import type { OutputSchemaAtCall } from '../../../shared/domain.ts';
import { JsonTree } from '../../ui/JsonTree.tsx';

/**
 * A result's structuredContent as a tree, with whether it was checked against the tool's output schema
 * when the call was made: the connection fails a successful call whose content does not match a declared
 * schema, so shown content either matched it or the tool declared none. A tool's own failure is not checked.
 */
export function StructuredContent({ value, outputSchema, isError }: { value: unknown; outputSchema: OutputSchemaAtCall | undefined; isError: boolean }) {
  return (
    <div className="structured">
      <details>
        <summary>Structured content</summary>
        <JsonTree value={value} />
      </details>
      {outputSchema ? <p className={outputSchema.declared && !isError ? 'schema-check schema-check-ok' : 'schema-check'}>{checkText(outputSchema, isError)}</p> : null}
    </div>
  );
}

function checkText(outputSchema: OutputSchemaAtCall, isError: boolean): string {
  if (!outputSchema.declared) return 'The tool declares no output schema, so this content was not checked.';
  if (isError) return "Not checked against the tool's output schema: the tool reported a failure.";
  return "✓ Matches the tool's output schema.";
}

/** The output schema the tool declared when it was called, folded; its tree is built only once opened. */
export function OutputSchemaTree({ outputSchema }: { outputSchema: OutputSchemaAtCall | undefined }) {
  const [open, setOpen] = useState(false);
  if (!outputSchema?.declared) return null;
  return (
    <details className="structured" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Output schema</summary>
      {open ? <JsonTree value={outputSchema.schema} /> : null}
    </details>
  );
}
