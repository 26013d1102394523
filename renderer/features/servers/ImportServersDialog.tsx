import type { ServerSnapshot } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../store/useHostQuery.ts';
import { ActionReport, useActionLog } from '../../ui/ActionReport.tsx';
import { ConsentDialog } from '../../ui/ConsentDialog.tsx';
import { HostConfigImports } from '../../serverSetup/HostConfigImports.tsx';
import { PasteServerConfig } from '../../serverSetup/PasteServerConfig.tsx';

/**
 * The servers in other hosts' configs on this computer, to bring into Atrium one by one, or those of a
 * config pasted or chosen from a file, which `onPasted` hands over to be started once approved.
 */
export function ImportServersDialog({ onDone, onPasted }: { onDone(): void; onPasted(servers: ServerSnapshot[]): void }) {
  const api = useAtriumApi();
  const { data, error, reload } = useHostQuery(() => api.discoverSetup({}), 'import');
  const log = useActionLog(reload);
  return (
    <ConsentDialog
      title="Import servers"
      from="From the MCP configs of Claude Desktop, VS Code and Cursor on this computer (a server you import from them runs exactly the command line shown, once you approve it in its start dialog), or from a config you paste or choose."
      onDismiss={onDone}
    >
      {!data && !error ? <p className="muted">Looking for other hosts’ configs…</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <ActionReport log={log} />
      {data ? <HostConfigImports configs={data.configs} log={log} /> : null}
      {data?.configs.length === 0 ? <p className="muted">No config of Claude Desktop, VS Code or Cursor was found on this computer.</p> : null}
      <PasteServerConfig onAdded={onPasted} />
      <div className="consent-actions">
        <button type="button" className="button" data-autofocus onClick={onDone}>
          Close
        </button>
      </div>
    </ConsentDialog>
  );
}
