import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtriumStore } from './useAtriumStore.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';

/**
 * An answer a view asks the host for that is not part of the host's state the store mirrors: a search's
 * results, what a probe of this computer found, one server's grants. Loaded on mount, whenever `key`
 * changes and whenever the link to the host (re)opens (the store knows the link), reloadable, with the
 * failure as a sentence to show. An answer that arrives after a newer load started is dropped. State
 * the host announces changes of (servers, catalogs, settings, workspaces) is read from the store instead.
 */
export function useHostQuery<T>(load: () => Promise<T>, key: string): { data: T | null; error: string | null; reload(): Promise<void>; fail(error: unknown): void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const ticket = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++ticket.current;
    try {
      const value = await loadRef.current();
      if (mine !== ticket.current) return;
      setData(value);
      setError(null);
    } catch (failure) {
      if (mine === ticket.current) setError(errorMessage(failure));
    }
  }, []);
  const link = useAtriumStore((state) => state.link);
  useEffect(() => {
    if (link === 'open') void reload();
  }, [reload, key, link]);
  const fail = useCallback((failure: unknown) => setError(errorMessage(failure)), []);
  return { data, error, reload, fail };
}
