// The console's route tree as Remix builds it from app/routes (flat routes, app/routes.ts), and a request
// handler over the real route modules — for tests that send requests through Remix's own pipeline (the
// one web-server.mjs serves), with the API stubbed (tests/support/api-stub.ts).
import { createRequire } from 'node:module'
import path from 'node:path'
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { ignoredRouteFiles } from '#app/route-files.ts'

export type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; file: string }

const require = createRequire(import.meta.url)
// The convention's own function, from its file (the package's index loads all of Vite with it).
const { flatRoutes } = require('@remix-run/dev/dist/config/flat-routes.js') as {
  flatRoutes: (appDirectory: string, ignoredFilePatterns: string[], prefix: string) => Record<string, RouteEntry>
}

const APP_DIR = path.resolve(import.meta.dirname, '../../app')

/** Every route of app/routes by id, as app/routes.ts lists them. */
export function routeTree(): Record<string, RouteEntry> {
  return flatRoutes(APP_DIR, ignoredRouteFiles, 'routes')
}

/** A route's URL: its ancestors' segments and its own, dynamic segments filled with `fill`. */
export function urlOf(routes: Record<string, RouteEntry>, id: string, fill = '1'): string {
  const segments: string[] = []
  for (let r: RouteEntry | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) segments.unshift(r.path)
  return `/${segments.join('/')}`.replace(/\/:[^/]+/g, `/${fill}`).replace(/\/+$/, '') || '/'
}

/** A route and its ancestors up to (not including) the root. */
export function lineage(routes: Record<string, RouteEntry>, id: string): RouteEntry[] {
  const out: RouteEntry[] = []
  for (let r: RouteEntry | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) out.unshift(r)
  return out
}

/** The module of a route, imported from app/. */
export const routeModule = (route: RouteEntry) => import(path.join(APP_DIR, route.file)) as Promise<Record<string, unknown>>

/**
 * Remix's request handler over the root and the given routes with their ancestors (their real
 * modules). The document itself is a stub: what is checked is status, headers and data.
 */
export async function requestHandler(routes: Record<string, RouteEntry>, ids: string[]) {
  const entries: ServerBuild['routes'] = { root: { id: 'root', path: '', module: (await import(path.join(APP_DIR, 'root.tsx'))) as never } }
  for (const id of ids) {
    for (const r of lineage(routes, id)) {
      entries[r.id] ??= { id: r.id, parentId: r.parentId, path: r.path, index: r.index, caseSensitive: undefined, module: (await routeModule(r)) as never }
    }
  }
  const build = {
    mode: 'production',
    entry: { module: { default: (_request: Request, status: number, headers: Headers) => new Response('<!doctype html>', { status, headers }) } },
    routes: entries,
    assets: { entry: { imports: [], module: '' }, routes: {}, url: '', version: 'test' },
    publicPath: '/',
    assetsBuildDirectory: '',
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true, v3_routeConfig: true },
    isSpaMode: false,
  } as unknown as ServerBuild
  return createRequestHandler(build)
}
