import { useEffect, useState } from 'react';
import { viewPermissionNames } from '../contract/viewSandbox.ts';
import type { ViewPermission } from '../contract/viewSandbox.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';

/**
 * The browser permissions a view asks for, each denied until the person ticks it for the server's views.
 * What they tick is kept (listed and revoked in the server's Permissions) and applies to every view of
 * the server; a view already shown starts again with it.
 */
export function ViewPermissions({ serverId, asked, allowed }: { serverId: string; asked: readonly ViewPermission[]; allowed: readonly ViewPermission[] }) {
  const api = useAtriumApi();
  const [error, setError] = useState<string | null>(null);
  // The box shows the person's click at once; the host's answer (viewTrustChanged) then decides it.
  const [clicked, setClicked] = useState<Partial<Record<ViewPermission, boolean>>>({});
  const allowedNow = allowed.join(' ');
  useEffect(() => setClicked({}), [allowedNow]);
  if (asked.length === 0) return null;
  return (
    <fieldset className="tool-view-permissions">
      <legend>
        Views from <UntrustedText text={serverId} /> ask to use your {asked.map((name) => viewPermissionNames[name]).join(', ')}. Allow:
      </legend>
      {asked.map((permission) => (
        <label key={permission} className="field-check">
          <input
            type="checkbox"
            checked={clicked[permission] ?? allowed.includes(permission)}
            onChange={(event) => {
              const wanted = event.target.checked;
              setError(null);
              setClicked((before) => ({ ...before, [permission]: wanted }));
              api.setViewPermission({ serverId, permission, allowed: wanted }).catch((failure: unknown) => {
                setClicked((before) => ({ ...before, [permission]: undefined }));
                setError(errorMessage(failure));
              });
            }}
          />
          {viewPermissionNames[permission]}
        </label>
      ))}
      {error ? <p role="alert">{error}</p> : null}
    </fieldset>
  );
}
