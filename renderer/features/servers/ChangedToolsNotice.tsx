import type { ServerSnapshot } from '../../../shared/domain.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';

/** On a server's card: tools the server changed since they were approved, which the model does not get, with the way to review them. */
export function ChangedToolsNotice({ server }: { server: ServerSnapshot }) {
  const tools = useAtriumStore((state) => state.catalogs[server.id]?.tools);
  const selectServer = useAtriumStore((state) => state.selectServer);
  const selectServerTab = useAtriumStore((state) => state.selectServerTab);
  const changed = (tools ?? []).filter((tool) => tool.changed);
  if (changed.length === 0) return null;
  const names = changed.map((tool) => tool.name).join(', ');
  return (
    <p className="card-error tool-change-notice" role="status">
      <span>
        ⚠ {changed.length === 1 ? `The tool ${names} changed` : `${changed.length} tools changed (${names})`} since approved: withheld from the model until you review {changed.length === 1 ? 'it' : 'them'}.
      </span>
      <button
        type="button"
        className="button"
        aria-label={`Review the changed tools of ${server.id}`}
        onClick={() => {
          selectServer(server.id);
          selectServerTab('tools');
        }}
      >
        Review…
      </button>
    </p>
  );
}
