import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtriumStore } from '../store/useAtriumStore.ts';
import { errorMessage } from './AtriumRequestError.ts';

/**
 * Data a view reads from the host: loaded on mount, whenever `key` changes and whenever the link to the
 * host (re)opens, reloadable, with the failure as a sentence to show. An answer that arrives after a
 * newer load started is dropped.
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
