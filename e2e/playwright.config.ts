// Playwright journeys run the real host (`node main/web/serveWeb.ts`) and drive the built renderer in
// Debian's Chromium through the browser bridge; browsers cannot be downloaded in this environment.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: 'artifacts/results',
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  // Every test is bounded by `timeout`; this bounds the whole run, so CI can never hang on it.
  globalTimeout: 60 * 60_000,
  expect: { timeout: 20_000 },
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
