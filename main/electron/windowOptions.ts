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
    spellcheck: true,
  };
}

export function buildWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 640,
    minHeight: 480,
    title: 'Atrium',
    // Shown once the first paint is ready, so the window never flashes blank.
    show: false,
    webPreferences: buildWebPreferences(preloadPath),
  };
}
