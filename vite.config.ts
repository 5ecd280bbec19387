import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000) },
  build: {
    target: 'es2019',
    rollupOptions: {
      output: {
        // Mantine's core (theme, provider, style props, styles API) loads on every page of the console:
        // one chunk, where Rollup made one per set of routes sharing each of its small modules (the
        // workplace asked for 51 scripts before it hydrated, 41 now, and 1 KB less; decision 145).
        manualChunks(id) {
          return /node_modules\/@mantine\/core\/esm\/core\//.test(id) ? 'mantine-core' : undefined
        },
      },
    },
  },
  plugins: [
    // What a remix.config.js held lives here and in app/routes.ts (docs/decisions/109).
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
})
