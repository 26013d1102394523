import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../api/useHostQuery.ts';
import { ActionReport, useActionLog } from '../../ui/ActionReport.tsx';
import { ConsentDialog } from '../consent/ConsentDialog.tsx';
import { HostConfigImports } from './HostConfigImports.tsx';

/** The servers in other hosts' configs on this computer, to bring into Atrium one by one. */
export function ImportServersDialog({ onDone }: { onDone(): void }) {
  const api = useAtriumApi();
  const { data, error, reload } = useHostQuery(() => api.discoverSetup({}), 'import');
  const log = useActionLog(reload);
  return (
    <ConsentDialog
      title="Import servers"
      from="From the MCP configs of Claude Desktop, VS Code and Cursor on this computer. A server you import starts at once and runs exactly the command line shown."
      onDismiss={onDone}
    >
      {!data && !error ? <p className="muted">Looking for other hosts’ configs…</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <ActionReport log={log} />
      {data ? <HostConfigImports configs={data.configs} log={log} /> : null}
      {data?.configs.length === 0 ? <p className="muted">No config of Claude Desktop, VS Code or Cursor was found on this computer.</p> : null}
      <div className="consent-actions">
        <button type="button" className="button" data-autofocus onClick={onDone}>
          Close
        </button>
      </div>
    </ConsentDialog>
  );
}
