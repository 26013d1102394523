// Which port `npm run web` listens on. The same one run after run, so the address (a bookmark of it,
// the token aside) stays put; when another program holds it, a free port for that run, said out loud.
import { startBrowserBridge } from '../api/browserBridge.ts';
import type { BrowserBridge, BrowserBridgeOptions } from '../api/browserBridge.ts';

/** Outside the ephemeral range (32768+) and the usual dev-server ports (3000, 5173, 8080, …). */
export const DEFAULT_WEB_PORT = 7431;

/**
 * Listens on `port`, or without one on the default port, falling back to a free one (with a `note` to
 * print) when it is taken. A port the person asked for is never swapped: taken, it is an error.
 */
export async function listenOnWebPort(options: Omit<BrowserBridgeOptions, 'port'>, port: number | undefined): Promise<{ bridge: BrowserBridge; note?: string }> {
  try {
    return { bridge: await startBrowserBridge({ ...options, port: port ?? DEFAULT_WEB_PORT }) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (port !== undefined) throw new Error(`port ${port} is taken by another program: choose another with --port N, or --port 0 for any free port.`, { cause: error });
    const bridge = await startBrowserBridge({ ...options, port: 0 });
    return { bridge, note: `Port ${DEFAULT_WEB_PORT}, Atrium's usual one, is in use (by another program or another Atrium), so this run uses port ${bridge.port}.` };
  }
}
