// The postinstall patch of @remix-run/router (scripts/patch-router.mjs, decision 044) memoizes
// compilePath: a route pattern becomes a RegExp once, not on every match. These tests fail when the patch
// is not applied — the postinstall did not run, or a router upgrade has no single compilePath left.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/** Resolves `name` as the package at `from` does: down the dependency chain, whatever npm hoisted. */
const requireFrom = (from: string) => createRequire(from)
// The copy of the router the server runtime under @remix-run/node loads: the one that serves every request.
const [RUNTIME, ROUTER] = ['@remix-run/server-runtime', '@remix-run/router']
const runtimeRequire = requireFrom(requireFrom(createRequire(import.meta.url).resolve('@remix-run/node')).resolve(RUNTIME))
const routerEntry = runtimeRequire.resolve(ROUTER)
const MARK = '/* payshare: memoized compilePath */'

describe('@remix-run/router, as patched at install', () => {
  it('the server runtime\'s router builds the RegExp of a pattern once, however often it matches', () => {
    const router = runtimeRequire(ROUTER) as { matchPath: (pattern: string, pathname: string) => { params: Record<string, string | undefined> } | null }
    // A pattern no earlier match can have compiled.
    const pattern = `/patch-probe-${process.pid}-${Date.now()}/:id`
    const Real = globalThis.RegExp
    let built = 0
    globalThis.RegExp = new Proxy(Real, {
      construct(target, args: [string, string?]) {
        built++
        return Reflect.construct(target, args)
      },
    })
    try {
      for (let i = 0; i < 5; i++) expect(router.matchPath(pattern, pattern.replace(':id', String(i)))?.params.id).toBe(String(i))
    } finally {
      globalThis.RegExp = Real
    }
    expect(built, 'RegExps built for five matches of one pattern').toBe(1)
  })

  it('both builds carry the patch once: the CommonJS one the server loads and the ES module Vite bundles', () => {
    const dist = path.dirname(routerEntry)
    for (const file of ['router.cjs.js', 'router.js']) {
      const source = fs.readFileSync(path.join(dist, file), 'utf8')
      expect(source.split(MARK).length - 1, file).toBe(1)
    }
  })
})

describe('the route tree, built once per build (issue 24, decision 140)', () => {
  type Match = { params: Record<string, string | undefined>; pathname: string; route: { id: string } }
  const router = runtimeRequire(ROUTER) as { matchRoutes: (routes: object[], pathname: string) => Match[] | null }

  it('matchRoutes ranks a routes array once and keeps a pathname\'s matches, handing out copies', () => {
    let reads = 0
    const route = (id: string, routePath: string) => ({
      id,
      get path() {
        reads++
        return routePath
      },
    })
    const routes = [route('share', 'share/:unicode'), route('login', 'login'), route('home', '/')]
    const first = router.matchRoutes(routes, '/share/abcd1234')
    expect(first?.map((m) => [m.route.id, m.params.unicode])).toEqual([['share', 'abcd1234']])
    const afterFirst = reads
    first![0]!.params.unicode = 'changed by a caller'
    const again = router.matchRoutes(routes, '/share/abcd1234')
    expect(again?.[0]?.params.unicode, 'a caller\'s change stays its own').toBe('abcd1234')
    expect(router.matchRoutes(routes, '/share/other000')?.[0]?.params.unicode).toBe('other000')
    expect(router.matchRoutes(routes, '/login')?.[0]?.route.id).toBe('login')
    expect(router.matchRoutes(routes, '/nowhere/at/all')).toBeNull()
    expect(reads, 'route paths read again after the first match').toBe(afterFirst)
    // Another array (a new build) is ranked on its own.
    expect(router.matchRoutes([route('other', 'share/:code')], '/share/x')?.[0]?.params.code).toBe('x')
  })

  it('the render\'s static router converts one route tree to data routes once', () => {
    const remixRequire = requireFrom(createRequire(import.meta.url).resolve('@remix-run/react'))
    const { createStaticRouter } = remixRequire('react-router-dom/server') as { createStaticRouter: (routes: object[], context: object) => { routes: object[] } }
    const routes = [{ id: 'root', path: '/', children: [{ id: 'page', path: 'page' }] }]
    const context = { matches: [], location: { pathname: '/' }, loaderData: {}, actionData: null, errors: null, basename: '/' }
    expect(createStaticRouter(routes, context).routes).toBe(createStaticRouter(routes, context).routes)
    const source = fs.readFileSync(remixRequire.resolve('@remix-run/react/dist/server.js'), 'utf8')
    expect(source).toContain('/* payshare: route tree once per manifest */')
  })
})

/** The server runtime the console runs (its request handler), as the patches below see it. */
const serverRuntime = () => runtimeRequire(RUNTIME) as { createRequestHandler: (build: object, mode: string) => (request: Request) => Promise<Response> }
type Loader = (args: { request: Request }) => unknown
type Entry = (request: Request, status: number, headers: Headers, context: never) => Promise<Response>
/** A Remix build of one route, `loader` its data, `entry` the server entry's render (single fetch on, as the console's). */
const oneRouteBuild = (loader: Loader, entry: Entry) => ({
  routes: { root: { id: 'root', path: '', module: { default: () => null, loader } } },
  entry: { module: { default: entry } },
  assets: { routes: { root: { id: 'root', path: '', hasLoader: true, module: '/root.js' } }, entry: { module: '/entry.js', imports: [] }, url: '/manifest.js', version: '1' },
  future: { v3_singleFetch: true },
  publicPath: '/',
  assetsBuildDirectory: 'build',
  isSpaMode: false,
  basename: '/',
})

describe('the page\'s data for the browser, encoded when read (issue 24, decision 166)', () => {
  type Context = { serverHandoffStream: ReadableStream<Uint8Array> }
  const runtime = serverRuntime()
  const turbo = requireFrom(runtimeRequire.resolve(RUNTIME))('turbo-stream') as { encode: (...args: unknown[]) => unknown }
  /** A one-route build whose entry reads the handoff stream into the answer (a page with <Scripts>) or not (a visitor page). */
  const build = (read: boolean) =>
    oneRouteBuild(
      () => ({ hello: 'world' }),
      async (_request, status, headers, context: Context) => {
        let text = ''
        if (read) {
          const reader = context.serverHandoffStream.getReader()
          const decoder = new TextDecoder()
          for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value)
        }
        return new Response(text, { status, headers })
      },
    )

  it('a page that reads it gets the loader data; a page that does not costs no encoding', async () => {
    const real = turbo.encode
    let encoded = 0
    turbo.encode = (...args: unknown[]) => (encoded++, real(...args))
    try {
      const unread = await runtime.createRequestHandler(build(false), 'production')(new Request('http://localhost/'))
      expect(unread.status).toBe(200)
      expect(encoded, 'encodings for a page that renders no scripts').toBe(0)
      const read = await runtime.createRequestHandler(build(true), 'production')(new Request('http://localhost/'))
      expect(await read.text()).toContain('"hello","world"')
      expect(encoded).toBe(1)
    } finally {
      turbo.encode = real
    }
  })

  it('both builds of the server runtime carry the patch', () => {
    const dist = path.dirname(runtimeRequire.resolve(RUNTIME))
    for (const file of ['server.js', path.join('esm', 'server.js')]) {
      const source = fs.readFileSync(path.join(dist, file), 'utf8')
      expect(source.split('/* payshare: handoff encoded when read */').length - 1, file).toBe(1)
      expect(source.split('serverHandoffStream: __payshareWhenRead(').length - 1, file).toBe(2)
    }
  })
})

describe('a loader\'s request, copied only when there is something to strip (issue 24, decision 166)', () => {
  let seen: Request | undefined
  const build = oneRouteBuild(
    ({ request }) => ((seen = request), { url: request.url }),
    async (_request, status, headers) => new Response('page', { status, headers }),
  )
  const handler = serverRuntime().createRequestHandler(build, 'production')
  /** The Requests Remix builds while answering `input`, and the one its loader got. */
  async function answer(input: Request) {
    const Real = globalThis.Request
    let made = 0
    globalThis.Request = new Proxy(Real, {
      construct(target, args: ConstructorParameters<typeof Request>) {
        made++
        return Reflect.construct(target, args)
      },
    })
    try {
      expect((await handler(input)).status).toBe(200)
    } finally {
      globalThis.Request = Real
    }
    return { made, loaderGot: seen! }
  }

  it('a page with no search string reaches its loader as it came, uncopied (the bench\'s share page has none)', async () => {
    const input = new Request('http://localhost/')
    const { made, loaderGot } = await answer(input)
    expect(made).toBe(0)
    expect(loaderGot).toBe(input)
  })

  it('Remix\'s own parameters are still stripped, the others kept', async () => {
    const { made, loaderGot } = await answer(new Request('http://localhost/?index&_routes=root&order=ABC'))
    expect(made).toBe(2)
    expect(loaderGot.url).toBe('http://localhost/?order=ABC')
  })

  it('both builds of the server runtime carry the patch in its three strippers', () => {
    const dist = path.dirname(runtimeRequire.resolve(RUNTIME))
    for (const file of ['data.js', path.join('esm', 'data.js')]) {
      const source = fs.readFileSync(path.join(dist, file), 'utf8')
      expect(source.split('/* payshare: nothing to strip, nothing copied */').length - 1, file).toBe(3)
    }
  })
})
