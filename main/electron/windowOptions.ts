import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The renderer shows text that came from MCP servers and LLMs, so it is treated as hostile: no Node,
 * an isolated and sandboxed preload, and none of the switches that weaken the web security model.
 */
export function buildWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    // A middle click on a link does not open a window either (every window is refused anyway).
    disableBlinkFeatures: 'Auxclick',
    spellcheck: true,
  };
}

/** The first start's size and the smallest the window may be (the views are laid out for 1280x800). */
export const windowSizes = { width: 1280, height: 800, minWidth: 640, minHeight: 480 } as const;

/** `bounds` is where the window opens (windowState.ts); without a position it is centred. */
export function buildWindowOptions(preloadPath: string, bounds: { width: number; height: number; x?: number; y?: number } = windowSizes): BrowserWindowConstructorOptions {
  return {
    width: bounds.width,
    height: bounds.height,
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: windowSizes.minWidth,
    minHeight: windowSizes.minHeight,
    title: 'Atrium',
    // Shown once the first paint is ready, so the window never flashes blank.
    show: false,
    webPreferences: buildWebPreferences(preloadPath),
  };
}
