import { defineConfig, devices } from '@playwright/test'
import { chromiumPath } from './scripts/chromium-path.mjs'
// env.ts makes this run's fresh directory (DATA_DIR inside it) when the runner loads this file.
import { ADMIN, API_PORT, BASE_URL, DATA_DIR, JS_OFF, JS_OFF_ONLY, SETTLEMENT_DELAY_HOURS, WEB_PORT } from './tests/e2e/env.ts'

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    // STACK.md: a Debian package (the headless shell, decision 095); `npx playwright install` cannot download here.
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // V8's optimising compilers off (Ignition and Sparkplug only): a test's page lives seconds, and
      // optimising its code is CPU spent for nothing on a 2-core machine that the browsers, the console and
      // the API share. 20–30% less Chromium CPU per console page load, measured (decision 167). Only here:
      // the bench's throttled and Lighthouse runs keep Chromium as a phone runs it.
      '--js-flags=--no-opt --no-maglev',
    ],
  },
}

export default defineConfig({
  testDir: './tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  // Two cores share the API, the console and the browsers; the tests mostly wait (on the server, on
  // polling, on a settlement delay), so a third worker overlaps those waits (decision 095: 3 workers
  // ran a third of the suite in 3.2 min against 3.8 with 2, and 4 gained nothing).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  reporter: 'list',
  // The shared 2-core machine that runs CI is at times 1.5–2.5x slower than usual (27 Nov: the suite
  // in 25.7 min instead of 10; a JS-on flash shown 10.5 s after its submit, past a 10 s wait).
  timeout: 90_000,
  expect: { timeout: 20_000 },
  use: {
    baseURL: BASE_URL,
    // A trace is recorded on a failed test's retry (CI retries once), not on every test: recording one
    // snapshots the page at each action, and cost 28–35% of the suite's time and 40% of Chromium's CPU
    // even for the tests that passed (walk-defects 134 → 97 s, shares-manage 142 → 96 s; decision 159).
    // Locally (no retries) record one with `npx playwright test --trace retain-on-failure <spec>`.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'js-on', grepInvert: JS_OFF_ONLY, use: { ...chromium, javaScriptEnabled: true } },
    // Without JavaScript: the form journeys — every form of the product submitted as a plain HTML form —
    // and the few pages that render differently without it: the tests tagged `@js-off` (both projects)
    // or `@js-off-only` (a journey whose other language runs with JavaScript). Decision 108.
    { name: 'js-off', grep: JS_OFF, use: { ...chromium, javaScriptEnabled: false } },
  ],
  webServer: {
    // Settings that would point the run at another database, provider or API are dropped.
    command: 'env -u DATABASE_URL -u REDIS_URL -u SMTP_URL -u SMS_PROVIDER -u API_URL -u SESSION_SECRET node scripts/start.mjs',
    url: `${BASE_URL}/login`,
    reuseExistingServer: false,
    // start.mjs builds first when the build is older than the sources.
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    env: {
      PORT: String(WEB_PORT),
      API_PORT: String(API_PORT),
      DATA_DIR,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'true',
      // Each test is its own client: the fixtures send a distinct X-Forwarded-For, so the per-IP
      // limits (20 code sends an hour) apply per test as they would per visitor.
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      SETTLEMENT_DELAY_HOURS: String(SETTLEMENT_DELAY_HOURS),
      // Dead links (issue 25): the tests serve their links from a fixture on 127.0.0.1, and a buyer's
      // refund request is not kept waiting for a fix window.
      LINK_CHECK_ALLOW_PRIVATE: '1',
      DEAD_LINK_FIX_HOURS: '0',
    },
  },
})
