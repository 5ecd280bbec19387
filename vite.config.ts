import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import { landingChunks } from './vite/landing-chunks.ts'
import { importsByFile } from './vite/package-imports.ts'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

const app = (file: string) => new URL(`./app/${file}`, import.meta.url).pathname

export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000) },
  build: {
    target: 'es2019',
    rollupOptions: {
      output: {
        // The chunks grouped by what `/login`, the console's layout and the workplace use, where Rollup
        // made one per set of routes sharing a module: the workplace asked for 47 scripts before it
        // hydrated (decisions 145, 152).
        manualChunks: landingChunks({
          root: app('root.tsx'),
          entryClient: app('entry.client.tsx'),
          login: app('routes/login/route.tsx'),
          layout: app('routes/_app/route.tsx'),
          workplace: app('routes/_app.dashboard.workplace/route.tsx'),
          // The pages behind login: children of the `_app` layout.
          isConsolePage: (file) => file.startsWith(app('routes/_app.')),
        }),
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
    // After Remix's plugin, so that the imports of a route's server code are gone (decision 152).
    importsByFile(['@mantine/core', '@mantine/hooks', '@mantine/notifications']),
  ],
})
