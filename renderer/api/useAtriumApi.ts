import { createContext, useContext } from 'react';
import type { AtriumClientApi } from '../../shared/contract.ts';

/** Components reach the host through this context, so a test can provide a fake API. */
export const AtriumApiContext = createContext<AtriumClientApi | null>(null);

export function useAtriumApi(): AtriumClientApi {
  const api = useContext(AtriumApiContext);
  if (!api) throw new Error('useAtriumApi must be used inside <AtriumApiContext.Provider>.');
  return api;
}
