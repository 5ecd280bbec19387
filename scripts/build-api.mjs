// Bundles the API (server/src/main.ts) to server/dist/main.js; packages stay external.
import { build } from 'esbuild'

await build({
  entryPoints: ['server/src/main.ts'],
  outfile: 'server/dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
})
