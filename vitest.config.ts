import { defineConfig } from 'vitest/config'

// Two projects (decision 095): the API's tests share their workers' module cache (`isolate: false`,
// which halves their import time: each file builds its own app and database, and keeps no module
// state between files), while the console's tests, which replace modules with `vi.mock`, keep one
// fresh module graph per file.
/** The adversarial files that drive the console's routes against the API double (tests/support/api-stub.ts). */
const ADVERSARIAL_CONSOLE = ['csv-injection', 'malformed-posts', 'open-redirect', 'visit-inflation-console'].map((f) => `tests/adversarial/${f}.test.ts`)

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'server', include: ['server/**/*.test.ts', 'contract/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'app', include: ['app/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.ts'] } },
      // The standing adversarial suite (issue 20): one party of a sale, or many requests at once, trying
      // what must not work. Its files that open a database run on PostgreSQL too (scripts/test.mjs).
      // Its API files share their workers' modules and reuse their PGlite databases like the `server`
      // project (decision 110); the ones that drive the console with a stubbed API replace modules, so they
      // keep a fresh module graph per file.
      { extends: true, test: { name: 'adversarial', include: ['tests/adversarial/**/*.test.ts'], exclude: ADVERSARIAL_CONSOLE, isolate: false } },
      { extends: true, test: { name: 'adversarial-console', include: ADVERSARIAL_CONSOLE } },
    ],
  },
})
