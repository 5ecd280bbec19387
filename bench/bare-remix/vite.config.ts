import path from 'node:path'
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'

// Baseline: a bare Remix page, no UI library, same server stack as the console.
const dir = path.dirname(new URL(import.meta.url).pathname)

export default defineConfig({
  root: dir,
  logLevel: 'warn',
  plugins: [
    remix({
      appDirectory: path.join(dir, 'app'),
      buildDirectory: path.join(dir, 'build'),
      future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true },
    }),
  ],
})
