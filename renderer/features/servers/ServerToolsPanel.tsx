import { useState } from 'react';
import type { ServerSnapshot, ToolSummary } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { catalogErrorKey } from '../../store/catalogSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { useActionProblem } from '../../ui/useActionProblem.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ToolChangeDialog } from './ToolChangeDialog.tsx';

/**
 * The server's tools, each with its on/off switch for the model, whether it is always loaded (sent even
 * when the model searches for the others), and what it claims about itself. A tool
 * the server changed since it was approved is marked withheld, with its review (old beside new) one click away.
 */
export function ServerToolsPanel({ server }: { server: ServerSnapshot }) {
  const api = useAtriumApi();
  const [reviewing, setReviewing] = useState<ToolSummary | null>(null);
  const tools = useAtriumStore((state) => state.catalogs[server.id]?.tools ?? null);
  const listError = useAtriumStore((state) => state.catalogErrors[catalogErrorKey(server.id, 'tools')]);
  const markStale = useAtriumStore((state) => state.markStale);
  const actionProblem = useActionProblem();
  const error = actionProblem.problem ?? listError;
  // What the person changed is listed again from the host, so the switches show what it holds.
  const load = () => {
    actionProblem.clear();
    markStale(server.id, 'tools');
  };
  const fail = (failure: unknown) => actionProblem.fail(failure);

  if (error) return <p role="alert">{error}</p>;
  if (!tools) return <p className="muted panel-pad">Loading tools…</p>;
  if (tools.length === 0) return <EmptyState title="No tools">This server offers no tools{server.status.kind === 'ready' ? '' : ' (it is not ready)'}.</EmptyState>;
  const allOn = tools.every((tool) => tool.enabled);
  const allLoaded = tools.every((tool) => tool.alwaysLoaded === true);
  return (
    <div className="panel-pad">
      <div className="tools-head">
        <Switch checked={allOn} label={`All tools of ${server.id} on`} onChange={(enabled) => void api.setToolEnabled({ serverId: server.id, enabled }).then(load, fail)}>
          All tools
        </Switch>
        <Switch
          checked={allLoaded}
          label={`All tools of ${server.id} always loaded`}
          onChange={(alwaysLoaded) => void api.setToolAlwaysLoaded({ serverId: server.id, alwaysLoaded }).then(load, fail)}
        >
          All always loaded
        </Switch>
        <span className="muted">
          {server.trusted ? 'Trusted: the annotations below are believed.' : 'Not trusted: the annotations below are shown, not believed.'}
        </span>
      </div>
      <ul className="tools-list" aria-label={`Tools of ${server.id}`}>
        {tools.map((tool) => (
          <li key={tool.name} className="tool-row">
            <Switch
              checked={tool.enabled}
              label={`${tool.name} on`}
              onChange={(enabled) => void api.setToolEnabled({ serverId: server.id, tool: tool.name, enabled }).then(load, fail)}
            >
              {tool.enabled ? 'On' : 'Off'}
            </Switch>
            {/* With many tools the model searches for the ones it needs; one kept loaded is always there. */}
            <Switch
              checked={tool.alwaysLoaded === true}
              label={`${tool.name} always loaded`}
              onChange={(alwaysLoaded) => void api.setToolAlwaysLoaded({ serverId: server.id, tool: tool.name, alwaysLoaded }).then(load, fail)}
            >
              {tool.alwaysLoaded ? 'Always loaded' : 'Loaded when found'}
            </Switch>
            <div className="tool-row-text">
              <span className="tool-row-name">
                <UntrustedText text={tool.title ?? tool.name} />
                <span className="muted"> · model sees it as {tool.modelName}</span>
              </span>
              {tool.description ? (
                <span className="muted">
                  <UntrustedText text={tool.description} />
                </span>
              ) : null}
              {tool.changed ? (
                <span className="tool-change-notice">
                  <span className="chip chip-warn">Changed — withheld from the model</span>
                  <button type="button" className="button" aria-label={`Review the change to ${tool.name}`} onClick={() => setReviewing(tool)}>
                    Review change…
                  </button>
                </span>
              ) : null}
              <span className="tool-row-hints">
                {tool.annotations?.readOnlyHint ? <span className="chip">read-only</span> : null}
                {tool.annotations?.destructiveHint === false ? <span className="chip">not destructive</span> : null}
                {tool.annotations?.idempotentHint ? <span className="chip">idempotent</span> : null}
                {tool.annotations?.openWorldHint === false ? <span className="chip">closed world</span> : null}
                {tool.view ? (
                  <span className="chip" title={tool.view.resourceUri}>
                    has a view
                  </span>
                ) : null}
                {tool.visibility && !tool.visibility.includes('model') ? <span className="chip">for its view only — not offered to the model</span> : null}
              </span>
            </div>
          </li>
        ))}
      </ul>
      {reviewing?.changed ? (
        <ToolChangeDialog
          tool={reviewing}
          change={reviewing.changed}
          onClose={(approved) => {
            setReviewing(null);
            if (!approved) void load();
          }}
        />
      ) : null}
    </div>
  );
}
